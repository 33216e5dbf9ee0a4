// Scenario files are checked against the shipped JSON Schema before any step runs; every problem
// names the file, the line and the field.
import { readFileSync } from 'node:fs'
import { Ajv } from 'ajv'
import { expect, test } from 'vitest'
import { SCENARIO_SCHEMA_PATH, ScenarioFileError, parseScenario, type ScenarioProblem } from '../../src/index.js'

function problems(text: string, file = 'bad.yaml'): readonly ScenarioProblem[] {
  try {
    parseScenario(text, file)
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioFileError)
    return (e as ScenarioFileError).problems
  }
  throw new Error('expected the scenario to be refused')
}

test('default: a valid scenario parses, with the lines of its fields', () => {
  const loaded = parseScenario(['name: ok', 'steps:', '  - send: { to: 1, value: 1 ether }', '    as: t', '  - mine: 1', ''].join('\n'), 'ok.yaml')
  expect(loaded.document.steps).toHaveLength(2)
  expect(loaded.locate(['steps', 1])).toEqual({ line: 5, column: 5 })
  expect(loaded.locate(['steps', 0, 'send', 'value'])?.line).toBe(3)
})

test('default: the shipped schema is a valid draft-07 JSON Schema', () => {
  const schema = JSON.parse(readFileSync(SCENARIO_SCHEMA_PATH, 'utf8')) as object
  const ajv = new Ajv({ strict: false })
  expect(ajv.validateSchema(schema), JSON.stringify(ajv.errors)).toBe(true)
})

test('error: an unknown step, with its line and a suggestion', () => {
  expect(problems('steps:\n  - mine: 1\n  - sned: { to: 1 }\n')).toMatchInlineSnapshot(`
    [
      {
        "column": 5,
        "line": 3,
        "message": "unknown step "sned" (did you mean "send"?): steps are accounts, deploy, send, call, mine, mining, time, snapshot, revert, reorg, wait, rpc, profile, expect",
        "path": "steps[1].sned",
      },
    ]
  `)
})

test('error: a missing field', () => {
  const [p] = problems('steps:\n  - call:\n      function: "f()"\n')
  expect(p).toMatchObject({ line: 3, path: 'steps[0].call', message: 'missing field "to"' })
})

test('error: a wrong type names what fits', () => {
  const [p] = problems('steps:\n  - send:\n      to: 1\n      value: lots\n')
  expect(p).toMatchObject({ line: 4, path: 'steps[0].send.value' })
  expect(p!.message).toMatch(/^expected a quantity: .*"1\.5 ether".*, got "lots"$/)
})

test('error: an unknown field, on the line of its key', () => {
  const [p] = problems('steps:\n  - send:\n      to: 1\n      gass: 5\n')
  expect(p).toMatchObject({ line: 4, column: 7, path: 'steps[0].send.gass', message: 'unknown field "gass" (did you mean "gas"?)' })
})

test('error: an unknown check in an expect step', () => {
  const [p] = problems('steps:\n  - expect: { balanse: 1 }\n')
  expect(p!.message).toMatch(/^unknown check "balanse" \(did you mean "balance"\?\)/)
})

test('error: a step that does two things', () => {
  const [p] = problems('steps:\n  - send: { to: 1 }\n    mine: 1\n')
  expect(p!.message).toBe('a step does one thing: this one has both "send" and "mine" (split it in two steps)')
})

test('error: a storage check needs a slot or a mapping', () => {
  const [p] = problems('steps:\n  - expect: { storage: 1, equals: 0 }\n')
  expect(p).toMatchObject({ path: 'steps[0].expect', message: 'missing field: give "slot" or "mapping"' })
})

test('error: every problem of a file at once, in line order', () => {
  const found = problems('chain: { windw: 5 }\nsteps:\n  - mine: -1\n  - time: { increase: 5x }\n  - expect: { receipt: t, status: maybe }\n')
  expect(found.map((p) => [p.line, p.path])).toEqual([
    [1, 'chain.windw'],
    [3, 'steps[0].mine'],
    [4, 'steps[1].time.increase'],
    [5, 'steps[2].expect.status'],
  ])
})

test('error: YAML syntax, with its line', () => {
  const [p] = problems('steps:\n  - send: { to: 1\n  - mine: 1\n')
  expect(p!.line).toBeGreaterThanOrEqual(2)
  expect(p!.path).toBe('')
})

test('error: a JSON file gets lines too', () => {
  const [p] = problems('{\n  "steps": [\n    { "mine": 1 },\n    { "wait": { "blocks": "two" } }\n  ]\n}\n', 'bad.json')
  expect(p).toMatchObject({ line: 4, path: 'steps[1].wait.blocks' })
})

test('behavior: the message of ScenarioFileError is one line per problem, file:line first', () => {
  try {
    parseScenario('steps:\n  - sned: 1\n', 'x.yaml')
  } catch (e) {
    expect((e as Error).message).toMatch(/^x\.yaml:2 steps\[0\]\.sned: unknown step/)
  }
})

test('behavior: hex stays text and large numbers keep their digits', () => {
  const loaded = parseScenario('steps:\n  - send: { to: 1, value: 123456789012345678901234567890, data: 0x1234 }\n')
  expect(loaded.document.steps[0]).toEqual({ send: { to: 1, value: '123456789012345678901234567890', data: '0x1234' } })
})
