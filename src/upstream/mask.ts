/**
 * Keeping an upstream's URL out of logs and errors: providers put the API key in the path, the
 * query or the credentials, so only the scheme and host are ever printed.
 */

/** The URL's scheme and host, with any path (where providers put keys), query and credentials masked. */
export function maskedLabel(url: string): string {
  try {
    const parsed = new URL(url)
    const hidden = (parsed.pathname !== '/' && parsed.pathname !== '') || parsed.search !== ''
    return `${parsed.protocol}//${parsed.host}${hidden ? '/…' : ''}`
  } catch {
    return '<invalid upstream URL>'
  }
}

/**
 * `text` with every secret part of `url` replaced by `…`: for messages that come from below
 * (fetch, ws) and may quote the URL they were given.
 */
export function scrubbed(text: string, url: string): string {
  let out = text.split(url).join(maskedLabel(url))
  try {
    const parsed = new URL(url)
    const secrets = [parsed.pathname.length > 1 ? parsed.pathname : '', parsed.search, parsed.password, parsed.username]
    for (const secret of secrets) if (secret.length > 1) out = out.split(secret).join('…')
  } catch {
    // not a URL: nothing more to hide than the text itself
  }
  return out
}
