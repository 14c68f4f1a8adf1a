/**
 * The insights page's shell. Everything it shows comes from the report API, fetched by its script
 * with the admin key the owner types in; the key lives in that script's memory only.
 */
const escapeAttribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function insightsPageHtml({
  built,
  domains,
}: {
  built: boolean;
  domains: string[];
}): string {
  const assets = built
    ? `<link rel="stylesheet" href="/insights/assets/insights.css">
    <script type="module" src="/insights/assets/insights.js"></script>`
    : '';
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="color-scheme" content="light dark">
    <meta name="robots" content="noindex">
    <link rel="icon" href="data:,">
    <title>Insights · docs-assistant</title>
    ${assets}
  </head>
  <body>
    <main id="insights" class="da-insights" data-state="locked" data-domains="${escapeAttribute(domains.join(' '))}">
      <header class="da-insights-header">
        <h1>Assistant insights</h1>
        <p>What readers ask, what the assistant could not answer, and which pages need work.</p>
      </header>
      ${
        built
          ? `<noscript><p>This page needs JavaScript.</p></noscript>`
          : `<p role="alert">This page needs the built files: run <code>npm run build</code>, then start the server again.</p>`
      }
    </main>
  </body>
</html>
`;
}
