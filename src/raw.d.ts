// `import text from './file.py?raw'`: Vite (tests) and our esbuild plugin (bundle) both turn it into a string.
declare module '*?raw' {
  const content: string;
  export default content;
}
