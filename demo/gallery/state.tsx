import { StrictMode, useEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { DocsAssistant, type AssistantHandle } from '../../src/index.js';
import '../../src/ui/styles/launcher.css';
import '../../src/ui/styles/widget.css';
import { QUESTIONS, respond, type ScenarioName } from './scenarios.js';
import { LABEL_SETS, settingsFrom } from './settings.js';

/** One widget state, opened and driven by a deterministic local stream (no server needed). */
const params = new URLSearchParams(location.search);
const scenario = (params.get('state') ?? 'empty') as ScenarioName;
const settings = settingsFrom(params);
const labels = LABEL_SETS[settings.labels];
if (settings.theme === 'dark') document.body.classList.add('dark');

/** Clicks the widget's button named `name` once it is there and enabled (states a reader reaches by clicking). */
function clickWhenReady(name: string, after: () => boolean = () => true) {
  const timer = setInterval(() => {
    const button = [...document.querySelectorAll<HTMLButtonElement>('.da-root button')].find(
      (b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name && !b.disabled,
    );
    if (button && after()) {
      clearInterval(timer);
      button.click();
    }
  }, 50);
  setTimeout(() => clearInterval(timer), 15_000);
}
const answerHas = (words: number) =>
  (document.querySelector('.da-message[data-role="assistant"]')?.textContent?.split(/\s+/).length ??
    0) > words;

/** A docs page behind the widget, so a panel with `push` has something to move aside. */
function SampleArticle() {
  return (
    <main className="sample-article">
      <h1>Static export</h1>
      <p>
        Static export turns your documentation site into a self-contained set of HTML, CSS and
        JavaScript files that you can host anywhere, even from a USB stick.
      </p>
      <h2>Start a job</h2>
      <p>
        An export runs as a job: start it, poll its status, then download the bundle when it has
        finished. Bundle links expire; the job and its files do not.
      </p>
      <pre>
        <code>npx docs-assistant export start --domain acme</code>
      </pre>
    </main>
  );
}

function Scenario() {
  const ref = useRef<AssistantHandle>(null);
  useEffect(() => {
    if (scenario === 'context') {
      ref.current?.addContext({
        type: 'code',
        value: 'npx docs-assistant export status se_01JD8X3K2M',
        path: '/static-export/cli',
        elementId: 'code-2',
      });
      ref.current?.addContext({
        type: 'textSelection',
        value: 'Bundle links expire; the job and its files do not.',
        path: '/static-export/overview',
      });
      return;
    }
    const question = QUESTIONS[scenario];
    if (question) ref.current?.ask(question);
    if (scenario === 'queued') ref.current?.ask('And how do I download the bundle?');
    if (scenario === 'stopped') clickWhenReady(labels.stop ?? 'Stop', () => answerHas(12));
    if (scenario === 'feedback') clickWhenReady(labels.notHelpful ?? 'Not helpful');
  }, []);
  return (
    <>
      {settings.push && <SampleArticle />}
      <DocsAssistant
        ref={ref}
        domain={`gallery-${scenario}`}
        baseUrl="https://api.example.com"
        docsBaseUrl={location.origin + '/'}
        persist={false}
        defaultOpen
        theme={settings.theme}
        mode={settings.mode}
        push={settings.push}
        showDeveloperDetails={params.has('dev')}
        labels={LABEL_SETS[settings.labels]}
        showLauncher={false}
        starterQuestions={settings.starters}
        supportUrl="https://support.example.com/?thread={threadId}"
        fetch={async () => respond(scenario)}
      />
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Scenario />
  </StrictMode>,
);
