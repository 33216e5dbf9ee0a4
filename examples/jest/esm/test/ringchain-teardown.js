export default async function () {
  await globalThis.ringchain.close()
}
