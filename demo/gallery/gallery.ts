/** The gallery: each widget state in its own frame, so modes and phone widths render for real. */
const STATES: [state: string, caption: string, extra?: string][] = [
  ['empty', 'Empty, with starter questions'],
  ['answer', 'A cited answer (streams in)'],
  ['every-part', 'Every part type'],
  ['streaming', 'Streaming'],
  ['long', 'A long answer'],
  ['context', 'Context chips'],
  ['error-unauthorized', 'Error: key refused (401)'],
  ['error-forbidden', 'Error: not allowed (403)'],
  ['error-not-found', 'Error: unknown site (404)'],
  ['error-rate-limited', 'Error: rate limited (429)'],
  ['error-server', 'Error: server (empty 502)'],
  ['error-network', 'Error: network'],
  ['error-cut', 'Error: connection cut mid-answer'],
  ['every-part', 'Dark theme', 'theme=dark'],
  ['empty', 'Dark, empty', 'theme=dark'],
];

const gallery = document.getElementById('gallery')!;
const frame = (state: string, caption: string, extra: string | undefined, width: number, height: number) => {
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
