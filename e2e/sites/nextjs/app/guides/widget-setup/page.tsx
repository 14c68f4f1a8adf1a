const traffic = `import { Dashboard, LineChart } from 'acme-widgets';

export function Traffic() {
  return (
    <Dashboard refreshSeconds={15}>
      <LineChart source="/api/traffic" />
    </Dashboard>
  );
}`;

const onError = `const dashboard = createDashboard({ onError: (error, widget) => console.warn(\`widget \${widget.id} failed: \${error.message}\`), retry: { attempts: 3, backoffMs: 500 } });`;

export default function WidgetSetup() {
  return (
    <article>
      <h1>Widget setup</h1>
      <p>The widget setup guide covers refresh intervals, data sources and error handling. Read the getting started page first.</p>
      <h2>Refresh interval</h2>
      <p>Widgets poll their data source. The refresh interval is in seconds and defaults to 30; set it to 0 to turn polling off.</p>
      <pre><code className="language-tsx">{traffic}</code></pre>
      <h2>Error handling</h2>
      <p>When a data source fails, the widget keeps the last good data and shows a small warning badge. Pass <code>onError</code> to log failures yourself.</p>
      <pre><code className="language-ts">{onError}</code></pre>
    </article>
  );
}
