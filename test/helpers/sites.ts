import type { DocPage } from '../../src/server/site/docs.js';

/**
 * The checked-in builds of real docs generators, each made from its own packages: VitePress,
 * Docusaurus and Starlight from npm (`node e2e/sites/build.mjs static`), Sphinx and MkDocs from PyPI
 * (`node e2e/sites/build.mjs python`).
 */
export const FRAMEWORK_BUILDS = {
  VitePress: 'e2e/sites/vitepress/docs/.vitepress/dist',
  Docusaurus: 'e2e/sites/docusaurus/build',
  Starlight: 'e2e/sites/starlight/dist',
  Sphinx: 'e2e/sites/sphinx/build',
  MkDocs: 'e2e/sites/mkdocs/site',
};

/** A page as plain data: what a reader of it gets, whether its body is held or read on demand. */
export const plainPage = (page: DocPage) => ({
  ...page,
  markdown: page.markdown,
  sections: page.sections.map((section) => ({
    ...section,
    text: section.text,
    code: section.code,
    blocks: section.blocks,
  })),
});
