// The head of a request as the HTTP fast lane (fast-lane.ts) reads it: `POST <target> HTTP/1.1`
// and its header lines, only as far as the lane needs them (length, type, close, host). Anything
// it does not recognise is undefined here, and the lane hands the connection to node:http.
// A client sends the same head on every request of a connection but for its Content-Length, so
// `HeadMemo` reads a head only once: the next ones are compared with it and only the length is read.

/** What the lane needs of a request head. */
export interface RequestHead {
  readonly target: string
  /** The body's length (Content-Length). */
  readonly length: number
  /** The Content-Type header as sent, if any. */
  readonly contentType: string | undefined
  /** The client asked to close the connection after this request. */
  readonly close: boolean
}

/** A target of visible ASCII, as clients send it (node:http judges anything else). */
const TARGET = /^\/[!-~]*$/
/** Header lines as RFC 9110 has them (token, colon, visible text or tabs), each ended by CRLF. */
const HEADER_LINES = /^(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+:[\t\x20-\x7e\x80-\xff]*\r\n)*$/
const CONTENT_LENGTH = /^[ \t]*(\d{1,15})[ \t]*$/
const CLOSE_TOKEN = /(?:^|[\s,])close(?:$|[\s,])/i

/** A parsed head, with where its Content-Length value lies in it (for `HeadMemo`). */
interface ParsedHead extends RequestHead {
  readonly lengthFrom: number
  readonly lengthTo: number
}

/**
 * Reads `head` (the request line and header lines, each with its CRLF, without the blank line).
 * Undefined for anything but a plain POST with one Host and one Content-Length and no
 * Transfer-Encoding, Expect or Upgrade.
 * @example readHead('POST /v3/k HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n')?.length // 2
 */
export function readHead(head: string): ParsedHead | undefined {
  const lineEnd = head.indexOf('\r\n')
  // `POST <target> HTTP/1.1`
  if (!head.startsWith('POST /') || head.charCodeAt(lineEnd - 9) !== 0x20 || !head.startsWith('HTTP/1.1', lineEnd - 8)) return undefined
  const target = head.slice(5, lineEnd - 9)
  if (!TARGET.test(target)) return undefined
  const fieldsAt = lineEnd + 2
  const fields = head.slice(fieldsAt)
  if (!HEADER_LINES.test(fields)) return undefined
  let length = -1
  let lengthFrom = -1
  let lengthTo = -1
  let contentType: string | undefined
  let close = false
  let hosts = 0
  for (let start = 0; start < fields.length; ) {
    const end = fields.indexOf('\r\n', start)
    const colon = fields.indexOf(':', start)
    const value = fields.slice(colon + 1, end)
    switch (fields.slice(start, colon).toLowerCase()) {
      case 'content-length': {
        const digits = length === -1 ? CONTENT_LENGTH.exec(value) : null
        if (digits === null) return undefined // malformed, or given twice
        length = Number(digits[1])
        lengthFrom = fieldsAt + colon + 1
        lengthTo = fieldsAt + end
        break
      }
      // Required by HTTP/1.1, once: node:http answers 400 to a request without it.
      case 'host':
        hosts++
        break
      case 'content-type':
        if (contentType !== undefined) return undefined
        contentType = value
        break
      case 'connection':
        if (CLOSE_TOKEN.test(value)) close = true
        break
      // A body in chunks, a client awaiting 100 Continue, a protocol switch: node:http's.
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return undefined
    }
    start = end + 2
  }
  if (length === -1 || hosts !== 1) return undefined
  return { target, length, contentType, close, lengthFrom, lengthTo }
}

/** The last head read on a connection, split around its Content-Length value. */
export class HeadMemo {
  #before: string | undefined
  #after = ''

  /** The Content-Length of `head` when it is the remembered head but for that value; -1 otherwise. */
  lengthOf(head: string): number {
    const before = this.#before
    if (before === undefined || head.length <= before.length + this.#after.length) return -1
    if (!head.startsWith(before) || !head.endsWith(this.#after)) return -1
    const digits = CONTENT_LENGTH.exec(head.slice(before.length, head.length - this.#after.length))
    return digits === null ? -1 : Number(digits[1])
  }

  /** Remembers `head`, a head `readHead` read and the lane accepted as it is. */
  remember(head: string, parsed: ParsedHead): void {
    this.#before = head.slice(0, parsed.lengthFrom)
    this.#after = head.slice(parsed.lengthTo)
  }
}
