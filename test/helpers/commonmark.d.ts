// The pinned CommonMark reference parser (devDependency), as the tests use it: Markdown in, HTML out.
declare module 'commonmark' {
  export class Parser {
    parse(md: string): unknown;
  }
  export class HtmlRenderer {
    render(doc: unknown): string;
  }
}
