#!/usr/bin/env node
// Builds the inspector page (src/inspector-ui/) into dist/inspector/: index.html as written (the
// server fills in its base path), assets/app.js (preact and the page, one ES module) and
// assets/app.css. Everything is bundled, so the running server serves static files and needs none
// of the front end's packages (preact is a devDependency), and the page works offline.
// INSPECTOR_MINIFY=0 keeps names readable, for profiling the page.
import { copyFileSync, mkdirSync, rmSync } from 'node:fs'
import { build } from 'esbuild'

const src = new URL('../src/inspector-ui/', import.meta.url).pathname
const out = new URL('../dist/inspector/', import.meta.url).pathname

rmSync(out, { recursive: true, force: true })
mkdirSync(out + 'assets', { recursive: true })
copyFileSync(src + 'index.html', out + 'index.html')
await build({
  entryPoints: { app: src + 'main.tsx' },
  outdir: out + 'assets',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: process.env.INSPECTOR_MINIFY !== "0",
  logLevel: 'warning',
})
