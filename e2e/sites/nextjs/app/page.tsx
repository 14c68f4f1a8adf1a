const install = `npm install acme-widgets --save
npx acme-widgets init --template dashboard --out ./src/widgets --with-typescript --with-storybook --force`;

const gauge = `import { Gauge } from 'acme-widgets';

export function CpuGauge({ load }: { load: number }) {
  const label = \`\${Math.round(load)} %\`;
  return <Gauge value={load} label={label} />;
}`;

export default function GettingStarted() {
  return (
    <article>
      <h1>Getting started</h1>
      <p>Acme Widgets is a small library for drawing dashboards in the browser. This page installs it, renders a first widget and explains the options you will meet first.</p>
      <h2>Install</h2>
      <p>Install the package with npm. It has no runtime dependencies besides React.</p>
      <pre><code className="language-sh">{install}</code></pre>
      <h2>Render a first widget</h2>
      <p>Import the <code>Gauge</code> component and give it a value between 0 and 100. The gauge redraws when the value changes.</p>
      <pre><code className="language-tsx">{gauge}</code></pre>
    </article>
  );
}
