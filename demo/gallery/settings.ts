import type { LabelsInput, Mode, Theme } from '../../src/index.js';
import { mergeTranslations } from '../../src/ui/translations.js';

/** What an owner picks in the gallery's controls; the shown widget and the snippet both follow it. */
export interface GallerySettings {
  theme: Theme;
  mode: Mode;
  /** Panel mode pushes the page aside (`push`). */
  push: boolean;
  labels: LabelSet;
  starters: string[];
}

export type LabelSet = 'en' | 'fr';

/** A translated set, to show that every visible string is a label. */
export const LABEL_SETS: Record<LabelSet, LabelsInput> = {
  en: {},
  fr: {
    launcher: 'Demander à l’IA',
    title: 'Interroger la documentation',
    close: 'Fermer',
    newConversation: 'Nouvelle conversation',
    emptyTitle: 'Comment puis-je aider ?',
    emptyBody:
      'Les réponses viennent de cette documentation, avec des liens vers les pages citées.',
    starterHeading: 'Essayez',
    placeholder: 'Posez une question…',
    inputLabel: 'Votre question',
    send: 'Envoyer',
    stop: 'Arrêter',
    you: 'Vous',
    assistant: 'Assistant',
    helpful: 'Utile',
    notHelpful: 'Pas utile',
    retry: 'Réessayer',
    followUps: 'Ensuite',
    suggestions: 'Pages liées',
  },
};

export const DEFAULT_STARTERS = [
  'How do I install it?',
  'How do I change the theme?',
  'What is static export?',
];

export function settingsFrom(params: URLSearchParams): GallerySettings {
  const starters = params.get('starters');
  return {
    theme: (params.get('theme') ?? 'light') as Theme,
    mode: (params.get('mode') ?? 'panel') as Mode,
    push: params.get('push') === '1',
    labels: params.get('labels') === 'fr' ? 'fr' : 'en',
    starters: starters === null ? DEFAULT_STARTERS : starters.split('|').filter(Boolean),
  };
}

export function settingsQuery(settings: GallerySettings): string {
  return new URLSearchParams({
    theme: settings.theme,
    mode: settings.mode,
    ...(settings.push ? { push: '1' } : {}),
    labels: settings.labels,
    starters: settings.starters.join('|'),
  }).toString();
}

/** `push` means something only to a panel: the snippets leave it out otherwise. */
const pushes = (settings: GallerySettings) => settings.push && settings.mode === 'panel';

const attr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The script tag for these settings; its strings go in `data-translations` (JSON, grouped per component). */
export function scriptSnippet(settings: GallerySettings): string {
  const lines = [
    '<script src="https://cdn.example.com/docs-assistant.js" defer',
    '        data-domain="acme" data-api-key="svc_dsc_…" data-base-url="https://api.example.com"',
    `        data-theme="${settings.theme}" data-mode="${settings.mode}"${pushes(settings) ? ' data-push' : ''}`,
  ];
  // `|` separates the questions in the attribute, so a question cannot contain one.
  if (settings.starters.length)
    lines.push(
      `        data-starter-questions="${attr(settings.starters.map((q) => q.replace(/\|/g, '/')).join('|'))}"`,
    );
  if (settings.labels !== 'en')
    lines.push(
      `        data-translations="${attr(JSON.stringify(mergeTranslations(undefined, LABEL_SETS[settings.labels])))}"`,
    );
  lines[lines.length - 1] += '></script>';
  return lines.join('\n');
}

export function reactSnippet(settings: GallerySettings): string {
  const props = [
    `domain="acme"`,
    `apiKey="svc_dsc_…"`,
    `baseUrl="https://api.example.com"`,
    `theme="${settings.theme}"`,
    `mode="${settings.mode}"`,
  ];
  if (pushes(settings)) props.push('push');
  if (settings.starters.length)
    props.push(`starterQuestions={${JSON.stringify(settings.starters)}}`);
  const labels = LABEL_SETS[settings.labels];
  if (Object.keys(labels).length)
    props.push(`labels={${JSON.stringify(labels, null, 2).replace(/\n/g, '\n  ')}}`);
  return [
    "import { DocsAssistant } from 'docs-assistant';",
    "import 'docs-assistant/styles.css';",
    '',
    `<DocsAssistant\n  ${props.join('\n  ')}\n/>`,
  ].join('\n');
}
