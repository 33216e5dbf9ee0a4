/**
 * The upstream over WebSocket: one connection, opened on first use and opened again after a drop.
 * Batches go out as JSON arrays and their answers are matched back by id. A drop fails the
 * batches waiting on it with a retryable `TransportError` (the client sends them again, on a new
 * connection); a batch not answered in time fails with a timeout.
 */
import WebSocket from 'ws'
import { scrubbed } from './mask.js'
import { TransportError, bodyOf, responsesOf, type RpcRequest, type RpcResponse, type Transport } from './transport.js'

/** One batch waiting for its answers. */
interface Waiter {
  readonly ids: Set<number>
  readonly answers: RpcResponse[]
  resolve(answers: readonly RpcResponse[]): void
  reject(error: TransportError): void
}

export function wsTransport(url: string, headers: Readonly<Record<string, string>> = {}): Transport {
  let socket: Promise<WebSocket> | undefined
  /** The socket being opened or open, so that a late close of an old one does not forget the new. */
  let current: WebSocket | undefined
  let closed = false
  const waiters = new Set<Waiter>()
  const byId = new Map<number, Waiter>()

  const forget = (waiter: Waiter) => {
    waiters.delete(waiter)
    for (const id of waiter.ids) byId.delete(id)
  }
  const failAll = (error: TransportError) => {
    for (const waiter of [...waiters]) {
      forget(waiter)
      waiter.reject(error)
    }
  }

  const onMessage = (data: WebSocket.RawData) => {
    let answers: readonly RpcResponse[]
    try {
      answers = responsesOf(JSON.parse(data.toString()))
    } catch {
      return // not an answer (a notification it could not parse is no batch's business)
    }
    for (const answer of answers) {
      if (typeof answer.id !== 'number') {
        // An error for a whole batch, without its id: every waiting batch gets it.
        if (answer.error !== undefined && answer.id === null) for (const w of [...waiters]) settle(w, [answer])
        continue
      }
      const waiter = byId.get(answer.id)
      if (waiter === undefined) continue
      byId.delete(answer.id)
      waiter.answers.push(answer)
      if (waiter.answers.length === waiter.ids.size) settle(waiter, waiter.answers)
    }
  }
  const settle = (waiter: Waiter, answers: readonly RpcResponse[]) => {
    forget(waiter)
    waiter.resolve(answers)
  }

  const connect = (timeoutMs: number): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers, handshakeTimeout: timeoutMs })
      ws.on('message', onMessage)
      ws.once('open', () => resolve(ws))
      ws.on('error', (error) => reject(new TransportError('unreachable', `unreachable (${scrubbed(describe(error), url)})`)))
      ws.once('close', () => {
        if (socket !== undefined && current === ws) socket = undefined
        failAll(new TransportError('dropped', 'connection dropped'))
        reject(new TransportError('unreachable', 'unreachable (connection closed while opening)'))
      })
      current = ws
    })

  const open = (timeoutMs: number): Promise<WebSocket> => {
    socket ??= connect(timeoutMs).catch((error: unknown) => {
      socket = undefined
      throw error
    })
    return socket
  }

  return {
    async exchange(requests: readonly RpcRequest[], timeoutMs: number): Promise<readonly RpcResponse[]> {
      if (closed) throw new TransportError('closed', 'client closed')
      const ws = await open(timeoutMs)
      return new Promise<readonly RpcResponse[]>((resolve, reject) => {
        const timer = setTimeout(() => {
          forget(waiter)
          reject(new TransportError('timeout', `timeout after ${timeoutMs} ms`))
        }, timeoutMs)
        const waiter: Waiter = {
          ids: new Set(requests.map((r) => r.id)),
          answers: [],
          resolve: (answers) => {
            clearTimeout(timer)
            resolve(answers)
          },
          reject: (error) => {
            clearTimeout(timer)
            reject(error)
          },
        }
        waiters.add(waiter)
        for (const id of waiter.ids) byId.set(id, waiter)
        ws.send(bodyOf(requests), (error) => {
          if (error !== undefined && error !== null) {
            forget(waiter)
            waiter.reject(new TransportError('dropped', 'connection dropped'))
          }
        })
      })
    },
    async close() {
      closed = true
      failAll(new TransportError('closed', 'client closed'))
      const ws = await socket?.catch(() => undefined)
      socket = undefined
      if (ws === undefined || ws.readyState === WebSocket.CLOSED) return
      await new Promise<void>((resolve) => {
        ws.once('close', () => resolve())
        ws.terminate()
      })
    },
  }
}

function describe(error: Error): string {
  return (error as { code?: string }).code ?? error.message
}
