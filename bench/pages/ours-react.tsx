import { useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant, type AssistantHandle } from '../../src/index.js';

// Ours as a React app imports it: React 19, the package's stylesheet, the lazy Markdown chunk.
function Page() {
  const handle = useRef<AssistantHandle>(null);
  useEffect(() => {
    const w = window as unknown as { DocsAssistant: Pick<AssistantHandle, 'open' | 'ask'> };
    w.DocsAssistant = {
      open: () => handle.current?.open(),
      ask: (q) => handle.current?.ask(q) ?? false,
    };
  }, []);
  return (
    <DocsAssistant ref={handle} domain="bench" apiKey="svc_dsc_bench" baseUrl="/" theme="light" />
  );
}

createRoot(document.getElementById('root')!).render(<Page />);
