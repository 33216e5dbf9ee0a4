/**
 * A `ws` client opened on a test server: terminated when the test ends, its messages collected as
 * text in the order they arrived.
 */
import { onTestFinished } from 'vitest'
import { WebSocket } from 'ws'

export async function openCollectingClient(url: string): Promise<{ ws: WebSocket; received: string[] }> {
  const ws = new WebSocket(url)
  onTestFinished(() => ws.terminate())
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  const received: string[] = []
  ws.on('message', (data) => received.push(String(data)))
  return { ws, received }
}
