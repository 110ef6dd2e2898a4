/**
 * Evaluates rendered NetworkPolicies as the API defines them: a pod selected by any policy of a
 * direction is isolated in that direction and allows only what some rule of those policies admits;
 * a connection needs the source's egress AND the destination's ingress. Covers what these manifests
 * use: numeric ports, pod/namespace selectors, ipBlock with except.
 */
import { BlockList, isIPv6 } from 'node:net';
import { arr, at, obj, ofKind, selects, str, type Obj } from './render';

/** A pod (labels, namespace) or an address outside the cluster (ip). */
export interface Peer {
  namespace?: string;
  labels?: Obj;
  ip?: string;
}

function inBlock(ip: string, block: Obj): boolean {
  const family = isIPv6(ip) ? 'ipv6' : 'ipv4';
  const contains = (cidr: string): boolean => {
    const [net, bits] = cidr.split('/');
    if (isIPv6(net) !== (family === 'ipv6')) return false;
    const list = new BlockList();
    list.addSubnet(net, Number(bits), family);
    return list.check(ip, family);
  };
  return contains(str(block.cidr) ?? '') && !arr(block.except).some((e) => contains(str(e) ?? ''));
}

function peerMatches(rulePeer: Obj, peer: Peer, policyNamespace: string): boolean {
  if (rulePeer.ipBlock) return peer.ip !== undefined && inBlock(peer.ip, obj(rulePeer.ipBlock));
  if (peer.ip !== undefined) return false;
  const nsSel = rulePeer.namespaceSelector;
  const nsOk =
    nsSel === undefined
      ? peer.namespace === policyNamespace
      : selects(obj(nsSel), { 'kubernetes.io/metadata.name': peer.namespace });
  const podOk = rulePeer.podSelector === undefined || selects(obj(rulePeer.podSelector), peer.labels ?? {});
  return nsOk && podOk;
}

function ruleAdmits(rule: Obj, peers: 'to' | 'from', peer: Peer, port: number, protocol: string, ns: string): boolean {
  const list = arr(rule[peers]).map(obj);
  const peerOk = list.length === 0 || list.some((p) => peerMatches(p, peer, ns));
  const ports = arr(rule.ports).map(obj);
  const portOk =
    ports.length === 0 || ports.some((p) => Number(p.port) === port && (str(p.protocol) ?? 'TCP') === protocol);
  return peerOk && portOk;
}

function direction(
  objects: Obj[],
  pod: Peer,
  type: 'Ingress' | 'Egress',
  other: Peer,
  port: number,
  protocol: string,
): boolean {
  if (pod.ip !== undefined) return true; // outside the cluster: not governed by these policies
  const policies = ofKind(objects, 'NetworkPolicy').filter(
    (p) =>
      str(at(p, 'metadata', 'namespace')) === pod.namespace &&
      selects(obj(at(p, 'spec', 'podSelector')), pod.labels ?? {}) &&
      arr(at(p, 'spec', 'policyTypes')).includes(type),
  );
  if (policies.length === 0) return true;
  const key = type === 'Ingress' ? 'ingress' : 'egress';
  return policies.some((p) =>
    arr(at(p, 'spec', key)).some((r) =>
      ruleAdmits(obj(r), type === 'Ingress' ? 'from' : 'to', other, port, protocol, pod.namespace ?? ''),
    ),
  );
}

/** Whether `from` may open a connection to `to` on `port`. */
export function allowed(objects: Obj[], from: Peer, to: Peer, port: number, protocol = 'TCP'): boolean {
  return (
    direction(objects, from, 'Egress', to, port, protocol) && direction(objects, to, 'Ingress', from, port, protocol)
  );
}
