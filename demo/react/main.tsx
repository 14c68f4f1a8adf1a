import { StrictMode, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant, usePageContext, type AssistantHandle } from '../../src/index.js';

/**
 * The sample docs with the React import instead of the script tag (served at /react/…). The page
 * links the package's styles.css, as `import 'docs-assistant/styles.css'` would.
 */
const mountPoint = document.getElementById('docs-assistant')!;
const { domain = 'demo', apiKey, baseUrl = location.origin, docsBaseUrl } = mountPoint.dataset;

function App() {
  const assistant = useRef<AssistantHandle>(null);
  usePageContext(assistant);
  return (
    <DocsAssistant
      ref={assistant}
      domain={domain}
      baseUrl={baseUrl}
      {...(apiKey ? { apiKey } : {})}
      {...(docsBaseUrl ? { docsBaseUrl } : {})}
      starterQuestions={[
        'How do I install it?',
        'How do I change the theme?',
        'What is static export?',
      ]}
    />
  );
}

createRoot(mountPoint).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
