#!/usr/bin/env node
// Drives the Apache Iggy Node.js SDK (the apache-iggy package, from
// foreign/node of apache/iggy) through the server-mode cases of the
// conformance kit (cmd/conform), as docs/conformance.md's driver script
// says: per case, connect, log in with the case id as username, ping twice
// once logged in, post what the login surfaced to the kit's control
// endpoint, close; at the end, POST /finish.
//
//   node driver.mjs [-addr 127.0.0.1:8091] [-control 127.0.0.1:8099] [-cases ID,...] [-timeout 10000]
//
// sdk/ is a link to the SDK's built sources (see README.md); it is never
// committed. The SDK is imported when the first case runs, so that what
// does not need it (the command line, how errors are reported) loads and
// is tested without it.

import { pathToFileURL } from "node:url";

/** The SDK, imported once. */
let sdk;
async function loadSDK() {
  sdk ??= await import("apache-iggy");
  return sdk;
}

// Every case logs in with this password: the kit accepts any and hides it
// in its reports.
const password = "conform";

// The codes docs/WIRE.md section 8 maps frames to, which the kit takes as
// numbers.
const section8 = new Set([3, 4, 30, 40, 42, 53, 57, 58]);

// The SDK's code for IncompatibleProtocolVersion, which WIRE.md section 8
// names rather than numbers.
const incompatibleProtocolVersion = 14003;

/**
 * Whether error is one of the SDK's own: a ResponseError (VsrEvictionError
 * is one), an Error carrying the numeric commandCode and errorCode the
 * SDK's ResponseError gives every error it maps from the wire.
 */
function isSDKError(error) {
  return error instanceof Error && Number.isInteger(error.errorCode) && Number.isInteger(error.commandCode);
}

/**
 * What the kit is told the SDK's login returned: "0" for success; an SDK
 * error by what WIRE.md section 8 calls it (its status code, or
 * IncompatibleProtocolVersion for the SDK's code 14003); any other SDK
 * error code as "SDK error N"; and an error that is not the SDK's own (a
 * closed socket, a timeout) as its text.
 */
export function surfaced(error) {
  if (error === undefined || error === null) return "0";
  if (isSDKError(error)) {
    if (error.errorCode === incompatibleProtocolVersion) return "IncompatibleProtocolVersion";
    if (section8.has(error.errorCode)) return String(error.errorCode);
    return `SDK error ${error.errorCode}`;
  }
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** Rejects after ms with an Error naming what timed out. */
function timeout(ms, what) {
  let timer;
  const promise = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** POSTs to the control endpoint and wants a 200. */
async function post(control, path) {
  const response = await fetch(`http://${control}${path}`, { method: "POST" });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${text.trim()}`);
}

/**
 * Runs one case: logs in explicitly (the SDK's ping needs no login, so a
 * ping alone would never log in), pings twice once logged in, and posts
 * what the login surfaced while the client is still open, since the kit
 * may end the run once the last case's connection has closed.
 */
export async function runCase({ host, port, control, id, timeoutMs }) {
  const { SingleClient } = await loadSDK();
  const client = new SingleClient({
    transport: "TCP",
    options: { host, port },
    credentials: { username: id, password },
    // Each case is one connection's worth of frames: the kit's cases are
    // clearer without the SDK's own reconnects and heartbeats.
    reconnect: { enabled: false, interval: 1000, maxRetries: 0 },
    heartbeatInterval: 0,
  });
  let got = "0";
  const limit = timeout(timeoutMs, `case ${id}`);
  try {
    await Promise.race([client.session.login({ username: id, password }), limit.promise]);
    try {
      await Promise.race([client.system.ping(), limit.promise]);
      await Promise.race([client.system.ping(), limit.promise]);
    } catch {
      // A ping's error is the SDK's business; the kit reads the wire.
    }
  } catch (error) {
    got = surfaced(error);
  } finally {
    limit.cancel();
  }
  try {
    await post(control, `/result?case=${encodeURIComponent(id)}&surfaced=${encodeURIComponent(got)}`);
  } finally {
    try {
      await client.destroy();
    } catch {
      // Closing a client the kit already closed is no failure of the case.
    }
  }
  return got;
}

/**
 * Drives the given cases (every case GET /cases lists when ids is empty),
 * then POST /finish. Returns how many were driven and how many results the
 * kit did not take.
 */
export async function drive({ addr, control, ids = [], timeoutMs = 10000, log = console.error }) {
  const [host, portText] = splitHostPort(addr);
  const port = Number(portText);
  const response = await fetch(`http://${control}/cases`);
  if (response.status !== 200) throw new Error(`GET /cases: ${response.status}`);
  const listed = (await response.json()).map((c) => c.id);
  const chosen = ids.length > 0 ? ids : listed;
  let refused = 0;
  for (const id of chosen) {
    try {
      await runCase({ host, port, control, id, timeoutMs });
    } catch (error) {
      log(`iggy-node: case ${id}: the result was not taken: ${error.message}`);
      refused += 1;
    }
  }
  try {
    await post(control, "/finish");
  } catch (error) {
    // A full run ends by itself once every case has run; the kit no longer
    // listening then is no error.
    if (chosen.length < listed.length) throw error;
  }
  return { driven: chosen.length, refused };
}

/** Splits "host:port" and "[v6]:port". */
function splitHostPort(addr) {
  const at = addr.lastIndexOf(":");
  if (at < 0) throw new Error(`-addr ${addr}: want HOST:PORT`);
  return [addr.slice(0, at).replace(/^\[(.*)\]$/, "$1"), addr.slice(at + 1)];
}

/** Parses the command line: -addr, -control, -cases, -timeout (ms). */
export function parseArgs(argv) {
  const opts = { addr: "127.0.0.1:8091", control: "127.0.0.1:8099", ids: [], timeoutMs: 10000 };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i].replace(/^--?/, "");
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${argv[i]}: wants a value`);
    i += 1;
    switch (flag) {
      case "addr": opts.addr = value; break;
      case "control": opts.control = value; break;
      case "cases": opts.ids = value.split(",").filter((s) => s !== ""); break;
      case "timeout": opts.timeoutMs = Number(value); break;
      default: throw new Error(`unknown flag ${argv[i - 1]}: want -addr, -control, -cases or -timeout`);
    }
  }
  return opts;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const { driven, refused } = await drive(parseArgs(process.argv.slice(2)));
    console.log(`iggy-node: ${driven} cases driven`);
    if (refused > 0) {
      console.error(`iggy-node: the kit took no result for ${refused} cases`);
      process.exitCode = 1;
    }
  } catch (error) {
    console.error(`iggy-node: ${error.message}`);
    process.exitCode = 1;
  }
}
