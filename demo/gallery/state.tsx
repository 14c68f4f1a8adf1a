import { createRef, StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant, type AssistantHandle, type Mode, type Theme } from '../../src/index.js';
import '../../src/ui/styles/launcher.css';
import '../../src/ui/styles/widget.css';
import { QUESTIONS, respond, type ScenarioName } from './scenarios.js';

/** One widget state, opened and driven by a deterministic local stream (no server needed). */
const params = new URLSearchParams(location.search);
const scenario = (params.get('state') ?? 'empty') as ScenarioName;
const theme = (params.get('theme') ?? 'light') as Theme;
const mode = (params.get('mode') ?? 'panel') as Mode;
if (theme === 'dark') document.body.classList.add('dark');

function Scenario() {
  const ref = createRef<AssistantHandle>();
  useEffect(() => {
    if (scenario === 'context') {
      ref.current?.addContext({ type: 'code', value: 'npx docs-assistant export status se_01JD8X3K2M', path: '/static-export/cli', elementId: 'code-2' });
      ref.current?.addContext({ type: 'textSelection', value: 'Bundle links expire; the job and its files do not.', path: '/static-export/overview' });
      return;
    }
    const question = QUESTIONS[scenario];
    if (question) ref.current?.ask(question);
  }, []);
  return (
    <DocsAssistant
      ref={ref}
      domain={`gallery-${scenario}`}
      baseUrl="https://api.example.com"
      docsBaseUrl={location.origin + '/'}
      persist={false}
      defaultOpen
      theme={theme}
      mode={mode}
      showLauncher={false}
      starterQuestions={['How do I install it?', 'How do I change the theme?', 'What is static export?']}
      supportUrl="https://support.example.com/?thread={threadId}"
      fetch={async () => respond(scenario)}
    />
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Scenario />
  </StrictMode>,
);
