// The fast lane's reading of request heads (src/server/request-head.ts): what it takes, what it
// leaves to node:http, and the memo that reads a connection's repeated head only once.

import { describe, expect, test } from 'vitest'
import { HeadMemo, readHead } from '../../src/server/request-head.js'

const head = (length: number | string, extra = '') => `POST /v3/key HTTP/1.1\r\nhost: 127.0.0.1:1\r\nconnection: keep-alive\r\ncontent-type: application/json\r\n${extra}content-length: ${length}\r\n`

describe('readHead', () => {
  test('behavior: a plain POST gives its target, length, content type and close', () => {
    expect(readHead(head(7))).toMatchObject({ target: '/v3/key', length: 7, contentType: ' application/json', close: false })
    expect(readHead(head(7, 'Connection: close\r\n'))?.close).toBe(true)
  })

  test('edge: anything but one Host and one plain Content-Length, or a body in chunks, is not read', () => {
    expect(readHead(head(7, 'content-length: 7\r\n'))).toBeUndefined()
    expect(readHead(head('7x'))).toBeUndefined()
    expect(readHead(head(7, 'transfer-encoding: chunked\r\n'))).toBeUndefined()
    expect(readHead(head(7, 'host: other\r\n'))).toBeUndefined()
    expect(readHead(head(7).replace('HTTP/1.1', 'HTTP/1.0'))).toBeUndefined()
    expect(readHead(head(7).replace('POST', 'GET'))).toBeUndefined()
    expect(readHead(head(7, 'bad header\r\n'))).toBeUndefined()
  })
})

describe('HeadMemo', () => {
  test('behavior: the remembered head with another length gives that length; any other change gives -1', () => {
    const memo = new HeadMemo()
    expect(memo.lengthOf(head(7))).toBe(-1)
    memo.remember(head(7), readHead(head(7))!)
    expect(memo.lengthOf(head(7))).toBe(7)
    expect(memo.lengthOf(head(1234))).toBe(1234)
    expect(memo.lengthOf(head(' 12 '))).toBe(12)
    expect(memo.lengthOf(head(''))).toBe(-1)
    expect(memo.lengthOf(head('1x'))).toBe(-1)
    expect(memo.lengthOf(head(7, 'connection: close\r\n'))).toBe(-1)
    expect(memo.lengthOf(head(7).replace('/v3/key', '/v3/kez'))).toBe(-1)
    // A second Content-Length right after the first is not one value.
    expect(memo.lengthOf(head('7\r\ncontent-length: 8'))).toBe(-1)
  })

  test('behavior: a Content-Length in the middle of the head is found as well', () => {
    const middle = (length: number) => `POST / HTTP/1.1\r\ncontent-length: ${length}\r\nhost: h\r\n`
    const memo = new HeadMemo()
    memo.remember(middle(3), readHead(middle(3))!)
    expect(memo.lengthOf(middle(45))).toBe(45)
    expect(memo.lengthOf(middle(45).replace('host: h', 'host: i'))).toBe(-1)
  })
})
