import {
  reactSnippet,
  scriptSnippet,
  settingsQuery,
  DEFAULT_STARTERS,
  type GallerySettings,
} from './settings.js';

/** The gallery: controls for one live widget with its snippet, then each state in its own frame. */
const STATES: [state: string, caption: string, extra?: string][] = [
  ['empty', 'Empty, with starter questions'],
  ['answer', 'A cited answer, with follow-up questions'],
  ['every-part', 'Every part type'],
  ['streaming', 'Streaming'],
  ['stopped', 'Stopped answer'],
  ['queued', 'Queued question'],
  ['feedback', 'Feedback form (after “Not helpful”)'],
  ['failed', 'Failed answer (server error mid-answer)'],
  ['long', 'A long answer'],
  ['context', 'Context chips'],
  ['error-unauthorized', 'Error: key refused (401)'],
  ['error-forbidden', 'Error: not allowed (403)'],
  ['error-not-found', 'Error: unknown site (404)'],
  ['error-rate-limited', 'Error: rate limited (429)'],
  ['error-server', 'Error: server (empty 502)'],
  ['error-network', 'Error: network'],
  ['error-cut', 'Error: connection cut mid-answer'],
  ['every-part', 'Developer details (showDeveloperDetails)', 'dev=1'],
  ['every-part', 'Dark theme', 'theme=dark'],
  ['empty', 'Dark, empty', 'theme=dark'],
];

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('controls');
const live = $<HTMLIFrameElement>('live-frame');
const stateSelect = $<HTMLSelectElement>('control-state');
const starters = $<HTMLTextAreaElement>('control-starters');
starters.value = DEFAULT_STARTERS.join('\n');
for (const [state, caption, extra] of STATES)
  if (!extra) stateSelect.add(new Option(caption, state));

function current(): GallerySettings {
  const data = new FormData(form);
  return {
    theme: data.get('theme') as GallerySettings['theme'],
    mode: data.get('mode') as GallerySettings['mode'],
    push: data.has('push'),
    labels: data.get('labels') as GallerySettings['labels'],
    starters: starters.value
      .split('\n')
      .map((q) => q.trim())
      .filter(Boolean),
  };
}

function apply() {
  const settings = current();
  // A fresh frame replays the state with the new settings: the deterministic stream makes it the same state.
  live.src = `./gallery/state.html?state=${stateSelect.value}&${settingsQuery(settings)}`;
  // The panel pushes the page only in windows at least 1024 px wide: give the frame that width.
  live.width = settings.push && settings.mode === 'panel' ? '1100' : '640';
  $('snippet-script').textContent = scriptSnippet(settings);
  $('snippet-react').textContent = reactSnippet(settings);
}
form.addEventListener('change', apply);
starters.addEventListener('input', apply);
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-copy]')) {
  button.addEventListener('click', async () => {
    await navigator.clipboard.writeText($(button.dataset.copy!).textContent ?? '');
    button.textContent = 'Copied';
    setTimeout(() => (button.textContent = 'Copy'), 1500);
  });
}
apply();

const gallery = $('gallery');
const frame = (
  state: string,
  caption: string,
  extra: string | undefined,
  width: number,
  height: number,
) => {
  const figure = document.createElement('figure');
  const label = document.createElement('figcaption');
  label.textContent = caption;
  const iframe = document.createElement('iframe');
  iframe.src = `./gallery/state.html?state=${state}${extra ? `&${extra}` : ''}`;
  iframe.title = caption;
  iframe.width = String(width);
  iframe.height = String(height);
  figure.append(label, iframe);
  gallery.append(figure);
};
for (const [state, caption, extra] of STATES) frame(state, caption, extra, 420, 620);
frame('every-part', 'Phone width (375 px)', undefined, 375, 700);
frame('answer', 'Modal mode', 'mode=modal', 900, 640);
frame('answer', 'Panel pushing the page aside (push)', 'push=1', 1100, 640);
