/**
 * Reading a scenario file: YAML or JSON (one parser, `yaml`, which keeps every node's position),
 * checked against the JSON Schema shipped in `scenarios/scenario.schema.json` (ajv) before any
 * step runs. Each problem is reported with the file, the line and the path of the field
 * (`steps[2].send.value`), in words a person writing the file can act on.
 *
 * Owns: parsing, positions (`locate`), validation and its messages. Leaves what steps mean to
 * `steps/`.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ErrorObject, ValidateFunction } from 'ajv'
import type { Document, Node } from 'yaml'
import { distance } from './scope.js'
import { show } from './values.js'
import type { ForkHeader } from './fork.js'

// The parser and the validator are loaded when the first scenario is read, not when ringchain is
// imported: most users of the library never play a scenario. Both ship CommonJS builds.
const require = createRequire(import.meta.url)
let yamlModule: typeof import('yaml') | undefined
const yaml = (): typeof import('yaml') => (yamlModule ??= require('yaml') as typeof import('yaml'))

/** The JSON Schema of scenario files, shipped with the package (editors autocomplete from it). */
export const SCENARIO_SCHEMA_PATH: string = fileURLToPath(new URL('../../scenarios/scenario.schema.json', import.meta.url))

/** One step as written: its kind's key and the common keys (`as`, `title`, `expect`). */
export type StepDocument = Readonly<Record<string, unknown>>

/** A scenario as written, after validation. */
export interface ScenarioDocument {
  readonly name?: string
  readonly description?: string
  readonly chain?: Readonly<Record<string, unknown>>
  /** The upstream the embedded chain forks (`fork.ts`). */
  readonly fork?: ForkHeader
  readonly digest?: string
  readonly steps: readonly StepDocument[]
}

/** Where something is in the file (1-based). */
export interface Position {
  readonly line: number
  readonly column: number
}

/** A problem found before any step ran. */
export interface ScenarioProblem {
  readonly message: string
  /** The field, as `steps[2].send.value`; empty for the whole file. */
  readonly path: string
  readonly line?: number
  readonly column?: number
}

/** A scenario file that cannot be played: every problem found, with its line. */
export class ScenarioFileError extends Error {
  override name = 'ScenarioFileError'
  constructor(
    readonly file: string | undefined,
    readonly problems: readonly ScenarioProblem[],
  ) {
    super(problems.map((p) => `${file ?? 'scenario'}${p.line === undefined ? '' : `:${p.line}`}${p.path === '' ? '' : ` ${p.path}`}: ${p.message}`).join('\n'))
  }
}

/** A parsed, valid scenario with the positions of its fields. */
export interface LoadedScenario {
  readonly file: string | undefined
  /** Where artifact paths are read from: the file's folder. */
  readonly baseDir: string
  readonly document: ScenarioDocument
  /** The position of the field at `path` (or of the nearest enclosing field written). */
  locate(path: readonly (string | number)[]): Position | undefined
}

/** The step kinds, in the order the documentation lists them. */
export const STEP_KINDS = ['accounts', 'deploy', 'send', 'call', 'mine', 'mining', 'time', 'snapshot', 'revert', 'reorg', 'wait', 'rpc', 'profile'] as const
export type StepKind = (typeof STEP_KINDS)[number] | 'expect'

/** The things an `expect` step can check. */
export const EXPECT_SUBJECTS = ['receipt', 'transaction', 'storage', 'balance', 'nonce', 'code', 'block', 'pool'] as const

/** Which kind a step is: its action key, else `expect`; undefined when it has none of them. */
export function stepKind(step: unknown): StepKind | undefined {
  if (typeof step !== 'object' || step === null) return undefined
  const kind = STEP_KINDS.find((k) => k in step)
  if (kind !== undefined) return kind
  return 'expect' in step ? 'expect' : undefined
}

/** Reads, parses and validates a scenario file; throws `ScenarioFileError` with every problem. */
export async function loadScenario(file: string): Promise<LoadedScenario> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (e) {
    throw new ScenarioFileError(file, [{ message: (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message, path: '' }])
  }
  return parseScenario(text, file)
}

/** Parses and validates scenario text (YAML or JSON); `file` names it in messages. */
export function parseScenario(text: string, file?: string): LoadedScenario {
  const { LineCounter, parseDocument } = yaml()
  const lineCounter = new LineCounter()
  // Hex stays text (`0x1f…` is a hash or data far more often than a number); whole numbers are
  // read as bigint so that none loses precision.
  const doc = parseDocument(text, {
    lineCounter,
    intAsBigInt: true,
    prettyErrors: false,
    uniqueKeys: true,
    customTags: (tags) => tags.filter((t) => typeof t === 'string' || !('format' in t) || (t.format !== 'HEX' && t.format !== 'OCT')),
  })
  const at = (offset: number | undefined): Position | undefined => {
    if (offset === undefined) return undefined
    const pos = lineCounter.linePos(offset)
    return { line: pos.line, column: pos.col }
  }
  if (doc.errors.length > 0) {
    throw new ScenarioFileError(
      file,
      doc.errors.map((e) => ({ message: e.message.split('\n')[0]!, path: '', ...at(e.pos[0]) })),
    )
  }
  const value = normalize(doc.toJS({ maxAliasCount: 1000 }))
  const locate = (path: readonly (string | number)[]) => at(locateOffset(doc, path))
  const problems = validate(value, locate, (path, key) => at(keyOffset(doc, path, key)))
  if (problems.length > 0) throw new ScenarioFileError(file, problems)
  return { file, baseDir: file === undefined ? process.cwd() : dirname(resolve(file)), document: value as ScenarioDocument, locate }
}

/**
 * Validates a scenario given as a value (from code): the same checks as a file, without lines.
 * Throws `ScenarioFileError`.
 */
export function checkScenario(value: unknown, baseDir: string = process.cwd()): LoadedScenario {
  const normalized = normalize(value)
  const problems = validate(normalized, () => undefined)
  if (problems.length > 0) throw new ScenarioFileError(undefined, problems)
  return { file: undefined, baseDir, document: normalized as ScenarioDocument, locate: () => undefined }
}

/** Whole numbers the YAML parser read as bigint: small ones become numbers, large ones decimal strings. */
function normalize(value: unknown): unknown {
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString()
  if (Array.isArray(value)) return value.map(normalize)
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]))
  return value
}

/** The offset of the node at `path`, or of the deepest node on the way to it. */
function locateOffset(doc: Document, path: readonly (string | number)[]): number | undefined {
  const { isMap, isPair, isScalar } = yaml()
  let node: unknown = doc.contents
  let offset = (node as Node | null)?.range?.[0]
  for (const segment of path) {
    if (node === null || node === undefined || isScalar(node)) break
    const collection = node as { items?: unknown[]; get?: (key: unknown, keepScalar: boolean) => unknown }
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && (isScalar(p.key) ? String(p.key.value) : String(p.key)) === String(segment))
      if (pair === undefined) break
      const valueNode = pair.value as Node | null
      offset = valueNode?.range?.[0] ?? (pair.key as Node | null)?.range?.[0] ?? offset
      node = valueNode
    } else if (Array.isArray(collection.items)) {
      const item = collection.items[Number(segment)] as Node | undefined
      if (item === undefined) break
      offset = item.range?.[0] ?? offset
      node = item
    } else break
  }
  return offset
}

/** The offset of a key in the map at `path` (for "unknown field" problems). */
function keyOffset(doc: Document, path: readonly (string | number)[], key: string): number | undefined {
  const { isMap, isPair, isScalar } = yaml()
  let node: unknown = doc.contents
  for (const segment of path) {
    if (isMap(node)) node = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(segment))?.value
    else if (node !== null && typeof node === 'object' && Array.isArray((node as { items?: unknown[] }).items)) node = (node as { items: unknown[] }).items[Number(segment)]
    else return undefined
  }
  if (!isMap(node)) return undefined
  const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === key)
  return (pair?.key as Node | undefined)?.range?.[0]
}

// --- validation ---------------------------------------------------------------------------------

let validators: { root: ValidateFunction; def: (name: string) => ValidateFunction } | undefined

function compiled(): NonNullable<typeof validators> {
  if (validators !== undefined) return validators
  const schema = JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as { $id: string }
  const { Ajv } = require('ajv') as typeof import('ajv')
  const ajv = new Ajv({ allErrors: true, verbose: true, strict: false, ownProperties: true })
  ajv.addSchema(schema)
  const root = ajv.getSchema(schema.$id)!
  const cache = new Map<string, ValidateFunction>()
  const def = (name: string) => {
    let v = cache.get(name)
    if (v === undefined) {
      v = ajv.getSchema(`${schema.$id}#/definitions/${name}`)
      if (v === undefined) throw new Error(`scenario schema has no definition ${name}`)
      cache.set(name, v)
    }
    return v
  }
  validators = { root, def }
  return validators
}

type Locate = (path: readonly (string | number)[]) => Position | undefined

function validate(value: unknown, locate: Locate, keyAt?: (path: readonly (string | number)[], key: string) => Position | undefined): ScenarioProblem[] {
  const { root, def } = compiled()
  if (root(value)) return []
  const errors = (root.errors ?? []).filter((e) => !/^\/steps\/\d+/.test(e.instancePath))
  const problems = translate(errors, [], value, locate, keyAt)
  const steps = (value as { steps?: unknown }).steps
  if (Array.isArray(steps)) {
    steps.forEach((step, i) => {
      const base = ['steps', i]
      const kind = stepKind(step)
      if (typeof step !== 'object' || step === null || Array.isArray(step)) {
        problems.push(problemAt(`a step is an object with one of: ${[...STEP_KINDS, 'expect'].join(', ')}`, base, locate))
        return
      }
      if (kind === undefined) {
        const unknown = Object.keys(step).find((k) => !['as', 'title'].includes(k))
        const near = unknown === undefined ? [] : [...STEP_KINDS, 'expect'].filter((k) => distance(k, unknown) <= 2)
        problems.push(
          unknown === undefined
            ? problemAt(`this step does nothing: give one of ${[...STEP_KINDS, 'expect'].join(', ')}`, base, locate)
            : problemAt(
                `unknown step "${unknown}"${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ''}: steps are ${[...STEP_KINDS, 'expect'].join(', ')}`,
                [...base, unknown],
                locate,
                keyAt?.(base, unknown),
              ),
        )
        return
      }
      const others = STEP_KINDS.filter((k) => k !== kind && k in step)
      if (others.length > 0) {
        problems.push(problemAt(`a step does one thing: this one has both "${kind}" and "${others[0]}" (split it in two steps)`, [...base, others[0]!], locate))
        return
      }
      const check = def(`step_${kind}`)
      if (!check(step)) {
        let errs = check.errors ?? []
        if (kind === 'expect') {
          const subject = (step as { expect?: unknown }).expect
          const subjectErrors = errs.filter((e) => e.instancePath.startsWith('/expect'))
          errs = errs.filter((e) => !e.instancePath.startsWith('/expect'))
          if (subjectErrors.length > 0) problems.push(...expectProblems(subject, [...base, 'expect'], locate, keyAt))
        }
        problems.push(...translate(errs, base, step, locate, keyAt))
      }
    })
  }
  return dedupe(problems)
}

function expectProblems(subject: unknown, base: (string | number)[], locate: Locate, keyAt: Parameters<typeof validate>[2]): ScenarioProblem[] {
  if (typeof subject !== 'object' || subject === null || Array.isArray(subject)) {
    return [problemAt(`an expect step checks one of: ${EXPECT_SUBJECTS.join(', ')}`, base, locate)]
  }
  const kinds = EXPECT_SUBJECTS.filter((k) => k in subject)
  if (kinds.length === 0) {
    const first = Object.keys(subject)[0]
    const near = first === undefined ? [] : EXPECT_SUBJECTS.filter((k) => distance(k, first) <= 2)
    return [
      problemAt(
        `unknown check${first === undefined ? '' : ` "${first}"`}${near.length > 0 ? ` (did you mean "${near[0]}"?)` : ''}: expect checks one of ${EXPECT_SUBJECTS.join(', ')}`,
        first === undefined ? base : [...base, first],
        locate,
        first === undefined ? undefined : keyAt?.(base, first),
      ),
    ]
  }
  if (kinds.length > 1) return [problemAt(`an expect step checks one thing: this one has both "${kinds[0]}" and "${kinds[1]}"`, [...base, kinds[1]!], locate)]
  const check = compiled().def(`expect_${kinds[0]}`)
  if (check(subject)) return []
  return translate(check.errors ?? [], base, subject, locate, keyAt)
}

/** ajv errors (paths relative to `base`, value at `base` is `value`) in words. */
function translate(errors: readonly ErrorObject[], base: readonly (string | number)[], value: unknown, locate: Locate, keyAt: Parameters<typeof validate>[2]): ScenarioProblem[] {
  // An `anyOf` says "none of the shapes fit". When the value is an object and the object shape
  // has its own complaints (an unknown or missing field), those say more; else say what fits.
  const anyOfPaths = new Set(errors.filter((e) => e.keyword === 'anyOf').map((e) => e.instancePath))
  const kept: ErrorObject[] = []
  for (const e of errors) {
    const covering = [...anyOfPaths].filter((p) => e.instancePath === p || e.instancePath.startsWith(p + '/'))
    if (covering.length === 0) {
      kept.push(e)
      continue
    }
    const outer = covering.sort((a, b) => a.length - b.length)[0]!
    const at = valueAt(value, pointer(outer))
    const objectProblems = errors.some(
      (o) => (o.instancePath === outer && ['additionalProperties', 'required', 'minProperties', 'maxProperties'].includes(o.keyword)) || o.instancePath.startsWith(outer + '/'),
    )
    if (typeof at === 'object' && at !== null && !Array.isArray(at) && objectProblems) {
      if (e.keyword === 'anyOf' && e.instancePath === outer) continue
      if (e.instancePath === outer && ['type', 'pattern', 'enum', 'const', 'minimum', 'maximum'].includes(e.keyword)) continue
      kept.push(e)
    } else if (e.keyword === 'anyOf' && e.instancePath === outer) kept.push(e)
  }
  // Several shapes each missing their own field ("slot" or "mapping"): one problem naming them all.
  const alternatives = new Map<string, string[]>()
  for (const e of kept) {
    if (e.keyword === 'required' && e.schemaPath.includes('/anyOf/')) {
      const list = alternatives.get(e.instancePath) ?? []
      list.push((e.params as { missingProperty: string }).missingProperty)
      alternatives.set(e.instancePath, list)
    }
  }
  const merged = kept.filter((e) => !(e.keyword === 'required' && e.schemaPath.includes('/anyOf/') && (alternatives.get(e.instancePath)?.length ?? 0) > 1))
  const extra = [...alternatives].filter(([, fields]) => fields.length > 1).map(([instancePath, fields]) => problemAt(`missing field: give ${fields.map((f) => `"${f}"`).join(' or ')}`, [...base, ...pointer(instancePath)], locate))
  return [...extra, ...merged.map((e) => {
    const path = [...base, ...pointer(e.instancePath)]
    const actual = valueAt(value, pointer(e.instancePath))
    const parent = (e.parentSchema ?? {}) as { title?: string; description?: string; properties?: Record<string, unknown> }
    switch (e.keyword) {
      case 'additionalProperties': {
        const key = (e.params as { additionalProperty: string }).additionalProperty
        const known = Object.keys(parent.properties ?? {})
        const near = known.filter((k) => distance(k, key) <= 2)
        return problemAt(`unknown field "${key}"${near.length > 0 ? ` (did you mean "${near[0]}"?)` : known.length > 0 ? ` (fields here: ${known.join(', ')})` : ''}`, [...path, key], locate, keyAt?.(path, key))
      }
      case 'required':
        return problemAt(`missing field "${(e.params as { missingProperty: string }).missingProperty}"`, path, locate)
      case 'minProperties':
        return problemAt(parent.title === undefined ? 'must not be empty' : `expected ${parent.title}`, path, locate)
      case 'maxProperties':
        return problemAt(`give only one of ${Object.keys(parent.properties ?? {}).join(', ')}`, path, locate)
      case 'type':
      case 'pattern':
      case 'enum':
      case 'const':
      case 'anyOf':
      case 'minimum':
      case 'maximum':
        return problemAt(`expected ${describe(parent, e)}, got ${show(actual)}`, path, locate)
      case 'propertyNames':
        return problemAt(`"${(e.params as { propertyName: string }).propertyName}" is not a valid name (a letter or _, then letters, digits, _ or -)`, path, locate)
      default:
        return problemAt(e.message ?? 'invalid', path, locate)
    }
  })]
}

function describe(schema: { title?: string; description?: string }, e: ErrorObject): string {
  if (schema.title !== undefined) return schema.title
  if (e.keyword === 'type') return `a value of type ${(e.params as { type: string }).type.replace(',', ' or ')}`
  if (e.keyword === 'enum') return `one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => show(v)).join(', ')}`
  return e.message ?? 'something else'
}

function problemAt(message: string, path: readonly (string | number)[], locate: Locate, position?: Position): ScenarioProblem {
  const pos = position ?? locate(path)
  return { message, path: formatPath(path), ...(pos === undefined ? {} : { line: pos.line, column: pos.column }) }
}

function dedupe(problems: ScenarioProblem[]): ScenarioProblem[] {
  const seen = new Set<string>()
  return problems
    .filter((p) => {
      const key = `${p.path}\0${p.message}`
      if (seen.has(key)) return false
      seen.add(key)
      return true
    })
    .sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

function pointer(instancePath: string): (string | number)[] {
  if (instancePath === '') return []
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s))
}

function valueAt(value: unknown, path: readonly (string | number)[]): unknown {
  let current = value
  for (const segment of path) current = (current as Record<string | number, unknown> | null | undefined)?.[segment]
  return current
}

/** `steps[2].send.value` */
export function formatPath(path: readonly (string | number)[]): string {
  let out = ''
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`
  return out
}
