// A generated docs site for the scale benchmark (bench/scale.ts): N pages of Markdown shaped like
// real reference and guide pages (front matter, headings, paragraphs, lists, code, tables, links),
// and the same pages as a built HTML site for `serve --site`. Deterministic: a seed gives the same
// bytes on every machine, so figures of two runs or two builds are figures of the same site.
import GithubSlugger from 'github-slugger';
import { marked, Renderer, type Tokens } from 'marked';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** mulberry32: a small seeded generator, so the site is the same everywhere. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

// The words every docs site repeats; they make up most of its prose, as in real docs.
const COMMON = (
  'the a of to and in is for that it with as on be this are by you can or from an when if your not ' +
  'will each which its one all has more use only then set so any new by default also must returns ' +
  'value option request response server client page site plugin route handler hook error config ' +
  'function method object string number array boolean type schema field key token user session ' +
  'file folder path url port host build deploy install run start stop test log cache store data ' +
  'query header body status code timeout retry limit version release update change remove add ' +
  'create read write delete list find load parse render stream event message queue worker job ' +
  'task process thread memory disk network connection database table index search answer question ' +
  'widget theme style layout component prop state context provider module package dependency'
).split(' ');
const VERBS = [
  'configure',
  'install',
  'deploy',
  'migrate',
  'customize',
  'validate',
  'authenticate',
  'cache',
  'stream',
  'export',
  'test',
  'debug',
  'monitor',
  'secure',
  'scale',
  'extend',
  'register',
  'serialize',
  'schedule',
  'translate',
];
const LANGS = ['ts', 'js', 'bash', 'json', 'yaml', 'python'];
const SYLLABLES = (
  'ka ri to mo su ne la vi po de zan tor mel quin bra sho ple gri fu xo ta be ni ro ga lu me sa ' +
  'ver dax pol tri nex kor lin bar fen gol hu jin kel mor nur pix rav sel tun vor wex yul zor'
).split(' ');

/**
 * The site's own vocabulary: product and API words no dictionary has, Zipf-distributed (a few are
 * everywhere, most appear on a handful of pages), growing with the site as real docs do.
 */
function vocabulary(size: number, next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const count = 2 + Math.floor(next() * 3);
    let word = '';
    for (let i = 0; i < count; i++) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

export interface GeneratedPage {
  /** Folder-relative file, `guides/ka/page-12.md`. */
  file: string;
  title: string;
  /** Questions a reader of this page would ask, answerable from it. */
  questions: string[];
}

export interface GeneratedSite {
  pages: GeneratedPage[];
  /** Bytes of Markdown written. */
  bytes: number;
}

const capital = (word: string) => word[0]!.toUpperCase() + word.slice(1);
const camel = (a: string, b: string) => a + capital(b);

/**
 * Writes `count` Markdown pages under `docsDir` and, when `siteDir` is given, the same pages built
 * to HTML there (one `index.html` per page, clean URLs, with the chrome a generator adds: header,
 * sidebar, footer, "Edit this page"). Returns the pages and the questions drawn from them.
 */
export async function generateScaleSite(
  count: number,
  docsDir: string,
  options: { seed?: number; siteDir?: string } = {},
): Promise<GeneratedSite> {
  const next = random(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const words = vocabulary(Math.max(2000, count * 2), next);
  // Zipf over the site's words: cumulative weights 1/r.
  const cumulative: number[] = [];
  words.reduce((sum, _word, r) => (cumulative[r] = sum + 1 / (r + 1)), 0);
  const zipf = () => {
    const target = next() * cumulative.at(-1)!;
    let [low, high] = [0, cumulative.length - 1];
    while (low < high) {
      const mid = (low + high) >> 1;
      if (cumulative[mid]! < target) low = mid + 1;
      else high = mid;
    }
    return words[low]!;
  };
  const word = () => (next() < 0.75 ? pick(COMMON) : zipf());
  const sentence = (about: string[]) => {
    const length = 8 + Math.floor(next() * 14);
    const parts = Array.from({ length }, () =>
      next() < 0.12 ? pick(about) : next() < 0.05 ? `\`${camel(zipf(), zipf())}\`` : word(),
    );
    return capital(parts.join(' ')) + '.';
  };
  const paragraph = (about: string[]) =>
    Array.from({ length: 2 + Math.floor(next() * 4) }, () => sentence(about)).join(' ');

  // Folders of 50–100 pages, two levels deep, as large sites group their pages.
  const folders = Array.from({ length: Math.max(1, Math.ceil(count / 60)) }, (_, i) => {
    const area = ['guides', 'reference', 'api', 'tutorials', 'concepts', 'recipes'][i % 6]!;
    return `${area}/${words[i]!}-${i}`;
  });
  const pages: GeneratedPage[] = [];
  const files = Array.from({ length: count }, (_, i) => `${folders[i % folders.length]}/page-${i}`);
  let bytes = 0;
  const written: Promise<void>[] = [];
  for (let i = 0; i < count; i++) {
    const [subject, thing] = [zipf(), zipf()];
    const api = camel(subject, thing);
    const verb = pick(VERBS);
    const title = `${capital(verb)} ${subject} ${thing}`;
    const about = [subject, thing, api, verb];
    const questions: string[] = [];
    const lines = [
      '---',
      `title: ${title}`,
      `description: How to ${verb} the ${subject} ${thing} and what each of its options does.`,
      '---',
      '',
      `# ${title}`,
      '',
      paragraph(about),
      '',
    ];
    questions.push(`How do I ${verb} the ${subject} ${thing}?`);
    const sectionCount = 3 + Math.floor(next() * 5);
    for (let s = 0; s < sectionCount; s++) {
      const [option, detail] = [zipf(), pick(COMMON)];
      const name = camel(option, detail);
      const kind = s === 0 ? 'options' : pick(['guide', 'option', 'api', 'troubleshooting']);
      if (kind === 'api') {
        lines.push(`## \`${api}.${name}(options)\``, '');
        questions.push(`What does ${api}.${name} do?`);
      } else if (kind === 'troubleshooting') {
        lines.push(`## Troubleshooting ${option} errors`, '');
        questions.push(`Why does ${subject} fail with a ${option} error?`);
      } else {
        lines.push(`## ${capital(verb)} ${option} ${detail}`, '');
        questions.push(`How can I ${verb} ${option} ${detail} for ${subject}?`);
      }
      lines.push(paragraph([...about, option, name]), '');
      if (next() < 0.5) lines.push(paragraph([...about, option]), '');
      if (next() < 0.6) {
        const lang = pick(LANGS);
        lines.push(
          '```' + lang,
          lang === 'bash'
            ? `npx ${subject} ${verb} --${option} ${detail}\n${subject} status --json`
            : lang === 'json' || lang === 'yaml'
              ? `{ "${name}": ${i}, "${thing}": "${zipf()}" }`
              : `import { ${api} } from '${subject}';\n\nconst ${thing} = ${api}({ ${name}: ${s}, retries: 3 });\nawait ${thing}.${verb}();`,
          '```',
          '',
        );
      }
      if (kind === 'options' || next() < 0.2) {
        lines.push('| Option | Type | Default | Description |', '| --- | --- | --- | --- |');
        for (let r = 0; r < 3 + Math.floor(next() * 5); r++)
          lines.push(
            `| \`${camel(zipf(), pick(COMMON))}\` | ${pick(['string', 'number', 'boolean'])} | \`${r}\` | ${sentence(about)} |`,
          );
        lines.push('');
      }
      if (next() < 0.4) {
        for (let l = 0; l < 2 + Math.floor(next() * 4); l++) lines.push(`- ${sentence(about)}`);
        lines.push('');
      }
      if (next() < 0.3) {
        lines.push(`### ${capital(zipf())} ${pick(COMMON)}`, '', paragraph(about), '');
      }
      const other = Math.floor(next() * count);
      lines.push(`See [${pick(VERBS)} ${zipf()}](/${files[other]}) for more.`, '');
    }
    const markdown = lines.join('\n');
    bytes += markdown.length;
    const file = `${files[i]}.md`;
    pages.push({ file, title, questions });
    written.push(writePage(join(docsDir, file), markdown));
    if (options.siteDir)
      written.push(
        writePage(
          join(options.siteDir, files[i]!, 'index.html'),
          htmlPage(title, markdown, files[i]!, folders),
        ),
      );
    // Bounded: a 20,000-page site would otherwise hold every write open at once.
    if (written.length >= 64) await Promise.all(written.splice(0));
  }
  await Promise.all(written);
  return { pages, bytes };
}

async function writePage(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, text);
}

/** One page as a generator builds it: the Markdown's HTML with heading ids, inside the site's chrome. */
function htmlPage(title: string, markdown: string, path: string, folders: string[]): string {
  const slugger = new GithubSlugger();
  const renderer = new Renderer();
  renderer.heading = function ({ tokens, depth, text }: Tokens.Heading) {
    const id = slugger.slug(text.replace(/`/g, ''));
    return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}<a class="anchor" href="#${id}">#</a></h${depth}>\n`;
  };
  const body = marked.parse(markdown.replace(/^---\n[\s\S]*?\n---\n/, ''), {
    async: false,
    renderer,
  });
  const folder = path.split('/').slice(0, 2).join('/');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title} | Scale Docs</title><link rel="canonical" href="https://scale.example/${path}/"></head>
<body>
<header><a href="/">Scale Docs</a><form role="search"><input type="search" placeholder="Search"><button>Search</button></form></header>
<nav class="sidebar"><ul>${folders
    .slice(0, 30)
    .map((f) => `<li><a href="/${f}/page-0/">${f}</a></li>`)
    .join('')}</ul></nav>
<main><article>
${body}
<a href="https://example.com/edit/${folder}">Edit this page</a>
</article></main>
<footer><p>Copyright Scale Docs. Built with a static site generator.</p></footer>
</body>
</html>
`;
}
