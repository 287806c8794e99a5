// The driver's own tests, and the driver against the kit. The kit is
// $CONFORM_KIT, or cmd/conform built with go into a temporary directory.

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { drive, parseArgs, surfaced } from "./driver.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..", "..", "..");

// The SDK, when it is linked and built (make conform-sdks does both);
// without it the tests that need it skip, saying so. A link that is there
// but does not load is a failure, not a skip.
let sdk;
try {
  sdk = await import("apache-iggy");
} catch (error) {
  if (existsSync(join(here, "sdk"))) throw error;
  sdk = undefined;
}
const noSDK = sdk ? false
  : "the Apache Iggy Node SDK is not linked: make conform-sdks IGGY_REPO=PATH links foreign/node of an apache/iggy checkout as sdk/, builds it and runs these tests (README.md says how by hand)";

// The kit serves $CONFORM_PROTOCOL, or 0.11.0: set it to the one the SDK
// speaks.
const protocol = process.env.CONFORM_PROTOCOL || "0.11.0";

/** An error shaped as the SDK's ResponseError, for the tests without it. */
function sdkShaped(commandCode, errorCode) {
  return Object.assign(new Error(`command ${commandCode} error ${errorCode}`), { name: "ResponseError", commandCode, errorCode });
}

test("an error of the SDK's shape reaches the kit by what WIRE.md section 8 calls it, another error as its text", () => {
  assert.equal(surfaced(undefined), "0");
  assert.equal(surfaced(sdkShaped(0, 14003)), "IncompatibleProtocolVersion");
  assert.equal(surfaced(sdkShaped(38, 42)), "42");
  assert.equal(surfaced(sdkShaped(38, 304)), "SDK error 304");
  assert.equal(surfaced(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", errno: -111 })), "connect ECONNREFUSED");
  assert.equal(surfaced(new Error("connection closed while waiting for response")), "connection closed while waiting for response");
  assert.equal(surfaced("odd"), "odd");
});

test("the SDK's own errors reach the kit by what WIRE.md section 8 calls them", { skip: noSDK }, () => {
  const { ResponseError, VsrEvictionError } = sdk;
  assert.equal(surfaced(undefined), "0");
  assert.equal(surfaced(new VsrEvictionError(14003)), "IncompatibleProtocolVersion");
  assert.equal(surfaced(new ResponseError(38, 14003)), "IncompatibleProtocolVersion");
  assert.equal(surfaced(new VsrEvictionError(42)), "42");
  assert.equal(surfaced(new ResponseError(38, 3)), "3");
  assert.equal(surfaced(new ResponseError(38, 304)), "SDK error 304");
  assert.equal(surfaced(new Error("connection closed while waiting for response")), "connection closed while waiting for response");
  assert.equal(surfaced("odd"), "odd");
});

test("the command line", () => {
  assert.deepEqual(parseArgs(["-addr", "127.0.0.1:1", "--control", "127.0.0.1:2", "-cases", "v1,s2", "-timeout", "500"]),
    { addr: "127.0.0.1:1", control: "127.0.0.1:2", ids: ["v1", "s2"], timeoutMs: 500 });
  assert.throws(() => parseArgs(["-nope", "1"]), /unknown flag/);
  assert.throws(() => parseArgs(["-addr"]), /wants a value/);
});

test("the driver against the kit: every case gets a connection and a result", { timeout: 120_000, skip: noSDK }, async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), "iggy-node-"));
  t.after(() => rmSync(tmp, { recursive: true, force: true }));
  let kit = process.env.CONFORM_KIT;
  if (!kit) {
    kit = join(tmp, "conform");
    execFileSync("go", ["-C", join(repo, "cmd"), "build", "-o", kit, "./conform"], { env: { ...process.env, GOWORK: join(repo, "cmd", "go.work") }, stdio: "inherit" });
  }
  const out = join(tmp, "reports");
  const child = spawn(kit, ["server", "-listen", "127.0.0.1:0", "-control", "127.0.0.1:0", "-agent", "iggy-node", "-out", out, "-vectors", join(repo, "vectors"),
    "-protocol", protocol],
    { stdio: ["ignore", "pipe", "inherit"] });
  t.after(() => child.kill());
  const exited = new Promise((res) => child.on("exit", (code) => res(code)));
  const lines = createInterface({ input: child.stdout });
  const seen = [];
  const addrs = await new Promise((res, rej) => {
    let addr;
    lines.on("line", (line) => {
      seen.push(line);
      const a = /^conform: server mode on ([^,]+),/.exec(line);
      if (a) addr = a[1];
      const c = /^conform: control endpoint http:\/\/(\S+) /.exec(line);
      if (c) res({ addr, control: c[1] });
    });
    child.on("exit", () => rej(new Error(`the kit ended first: ${seen.join("\n")}`)));
  });
  const logged = [];
  const { driven, refused } = await drive({ ...addrs, log: (m) => logged.push(m) });
  assert.ok(driven > 0);
  assert.equal(refused, 0, logged.join("\n"));
  // The kit exits 1 when a case fails; only a usage error (2) is wrong here.
  assert.ok([0, 1].includes(await exited), seen.join("\n"));
  const report = JSON.parse(readFileSync(join(out, "server-iggy-node.json"), "utf8"));
  assert.equal(report.cases.length, driven);
  for (const c of report.cases) {
    assert.notEqual(c.verdict, "not-run", c.id);
    assert.ok(c.surfaced, `${c.id}: no result posted`);
  }
  t.diagnostic(`Node SDK at protocol ${protocol}: ${report.summary.pass} pass, ${report.summary.fail} fail of ${report.cases.length}`);
});
