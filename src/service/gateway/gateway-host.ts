/**
 * Host names a request to the gateway may carry (DNS rebinding guard): loopback, as a process sandbox or a
 * port forwarded into a container calls it, and `host.docker.internal`, as a container on a bridge network
 * calls the host. Any port: a forwarded port inside the sandbox is not the gateway's own.
 */
const GATEWAY_HOSTS = new Set(['localhost', '::1', 'host.docker.internal']);

export function isGatewayHost(host: string | undefined): boolean {
  if (!host) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}`).hostname.toLowerCase();
  } catch {
    return false;
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  return GATEWAY_HOSTS.has(bare) || /^127(\.\d{1,3}){3}$/.test(bare);
}
