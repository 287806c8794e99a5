// A second runner for the conformance vectors, with no codec of its own and
// no dependency beyond Node's built-ins: it checks the structure of every
// vector (schema, hex, lengths, offsets, ids, rule coverage, the
// discrepancy table), which is what any SDK's loader can rely on.
//
//   node --test vectors/
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const readJSON = (name) => JSON.parse(readFileSync(join(dir, name), 'utf8'));

const schema = readJSON('schema.json');
const rules = readJSON('rules.json').rules;
const registry = readJSON('ids.json');
const kindFiles = readdirSync(dir)
  .filter((f) => f.endsWith('.json') && !['schema.json', 'rules.json', 'ids.json'].includes(f))
  .sort();
const files = kindFiles.map((name) => ({ name, data: readJSON(name) }));
const cases = files.flatMap((f) => f.data.cases.map((c) => ({ file: f, c })));

// validate checks value against the subset of JSON Schema that schema.json
// uses; it returns a list of problems.
function validate(value, s, path = '$') {
  if (s.$ref) return validate(value, resolve(s.$ref), path);
  const errs = [];
  const typeOf = (v) => (Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : v === null ? 'null' : typeof v);
  if (s.const !== undefined && value !== s.const) errs.push(`${path}: want ${s.const}`);
  if (s.enum && !s.enum.includes(value)) errs.push(`${path}: ${JSON.stringify(value)} not in enum`);
  if (s.type) {
    const types = [].concat(s.type);
    const t = typeOf(value);
    if (!types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      return [...errs, `${path}: type ${t}, want ${types}`];
    }
  }
  if (typeof value === 'string' && s.pattern && !new RegExp(s.pattern).test(value)) {
    errs.push(`${path}: does not match ${s.pattern}`);
  }
  if (typeof value === 'number' && s.minimum !== undefined && value < s.minimum) errs.push(`${path}: below ${s.minimum}`);
  if (Array.isArray(value) && s.items) value.forEach((v, i) => errs.push(...validate(v, s.items, `${path}[${i}]`)));
  if (typeOf(value) === 'object') {
    for (const r of s.required ?? []) if (!(r in value)) errs.push(`${path}: missing ${r}`);
    for (const [k, v] of Object.entries(value)) {
      if (s.properties?.[k]) errs.push(...validate(v, s.properties[k], `${path}.${k}`));
      else if (s.additionalProperties === false) errs.push(`${path}: unexpected ${k}`);
      else if (typeof s.additionalProperties === 'object') errs.push(...validate(v, s.additionalProperties, `${path}.${k}`));
    }
  }
  return errs;
}

function resolve(ref) {
  assert.match(ref, /^#\/\$defs\//);
  return schema.$defs[ref.slice('#/$defs/'.length)];
}

const bytes = (hex) => Buffer.from(hex, 'hex');
const utf8Len = (s) => Buffer.byteLength(s, 'utf8');

test('every file follows schema.json and is named for its kind', () => {
  assert.ok(files.length >= 13);
  for (const f of files) {
    assert.deepEqual(validate(f.data, schema), [], f.name);
    assert.equal(f.name, `${f.data.kind}.json`);
    for (const c of f.data.cases) assert.equal(c.kind, f.data.kind, c.name);
  }
});

test('at least 300 cases, ids unique and as registered in ids.json', () => {
  assert.ok(cases.length >= 300, `${cases.length} cases`);
  registry.ids.forEach((e, i) => assert.equal(e.id, i + 1, 'ids are dense and never renumbered'));
  const names = new Map(registry.ids.map((e) => [e.name, e.id]));
  assert.equal(names.size, registry.ids.length, 'registered names are unique');
  const seen = new Set();
  for (const { c } of cases) {
    assert.ok(!seen.has(c.id), `id ${c.id} used twice`);
    seen.add(c.id);
    assert.equal(names.get(c.name), c.id, `${c.name}: id not the registered one`);
  }
});

test('inputs are hex of the stated length; error offsets lie within them', () => {
  for (const { c } of cases) {
    if (c.kind === 'lifecycle') {
      assert.equal(c.input, undefined, c.name);
      continue;
    }
    assert.equal(typeof c.input, 'string', c.name);
    const b = bytes(c.input);
    assert.equal(b.length, c.length, c.name);
    assert.equal(b.length * 2, c.input.length, c.name);
    const e = c.expect;
    if (e.verdict !== 'error') continue;
    assert.ok(e.offset <= b.length, `${c.name}: offset ${e.offset} past ${b.length} bytes`);
    if (e.sentinel === 'utf8' && e.convention === 'utf8') assert.ok(b[e.offset] >= 0x80, `${c.name}: an invalid UTF-8 byte is never ASCII`);
    if (e.convention === 'secret_utf8') {
      // The secret's first byte: its length byte comes right before it.
      assert.ok(e.offset >= 1 && b.slice(e.offset, e.offset + b[e.offset - 1]).some((x) => x >= 0x80), `${c.name}: a secret holding a non-ASCII byte starts here`);
    }
    if (e.sentinel === 'reserved') assert.notEqual(b[e.offset], 0, `${c.name}: the first non-zero reserved byte`);
    if (e.sentinel === 'length') assert.equal(b[e.offset], 0, `${c.name}: an empty text's length byte`);
    if (e.sentinel === 'truncated' && e.field === 'header') assert.ok(b.length < 256, c.name);
    if (e.sentinel === 'command') assert.equal(e.offset, 60, c.name);
  }
});

// The length of a body from its decoded fields.
function bodyLength(kind, f) {
  const info = 4 + 1 + utf8Len(f.sdk_name ?? '') + 1 + utf8Len(f.sdk_version ?? '');
  switch (kind) {
    case 'client_version_info': return info;
    case 'login_register': return info + 1 + utf8Len(f.username) + 1 + f.password_len + 4 + utf8Len(f.context);
    case 'login_register_pat': return info + 1 + f.token_len + 4 + utf8Len(f.context);
    case 'login_reply': return 16 + 1 + utf8Len(f.server_version);
    case 'login_register_bind_secret': return info + f.bind_secret_len + 1 + utf8Len(f.username) + 1 + f.password_len + 4 + utf8Len(f.context);
    case 'login_register_pat_bind_secret': return info + f.bind_secret_len + 1 + f.token_len + 4 + utf8Len(f.context);
    case 'bind_session': return info + 16 + 8 + 8 + f.bind_secret_len;
  }
  return undefined;
}

test('ok verdicts account for every byte they decode', () => {
  for (const { c } of cases) {
    if (c.kind === 'lifecycle' || c.expect.verdict !== 'ok') continue;
    const b = bytes(c.input);
    const f = c.expect.fields;
    const n = bodyLength(c.kind, f);
    if (n !== undefined) {
      if (c.mode === 'strict') assert.equal(n, b.length, c.name);
      else assert.ok(c.expect.consumed === n && n <= b.length, c.name);
      if ('sdk_name' in f) {
        assert.equal(b.readUInt32LE(0), f.protocol_version, c.name);
        assert.equal(b[4], utf8Len(f.sdk_name), c.name);
        assert.equal(b.subarray(5, 5 + b[4]).toString('utf8'), f.sdk_name, c.name);
      }
    }
    if (['request_header', 'reply_header', 'eviction', 'login_reply_frame'].includes(c.kind)) {
      assert.ok(b.length >= 256, c.name);
      assert.equal(b.readUInt32LE(48), f.size, c.name);
    }
    if (c.kind === 'login_reply_frame') assert.equal(b.length, f.size, c.name);
    for (const k of Object.keys(f)) assert.ok(!/^(password|token)$/.test(k), `${c.name}: a secret shown as more than its length`);
  }
});

test('each kind says its side and which decoded fields an implementation must expose', () => {
  const sides = { request_header: 'server', login_register: 'server', login_register_pat: 'server', client_version_info: 'server',
    reply_header: 'client', eviction: 'client', login_reply: 'client', result_section: 'client', login_reply_frame: 'client', lifecycle: 'server',
    login_register_bind_secret: 'server', login_register_pat_bind_secret: 'server', bind_session: 'server' };
  for (const f of files) {
    const d = f.data;
    if (sides[d.kind]) assert.equal(d.side, sides[d.kind], f.name);
    const required = d.required_fields ?? [];
    const listed = new Set([...required, ...(d.optional_fields ?? [])]);
    assert.equal(listed.size, required.length + (d.optional_fields ?? []).length, `${f.name}: a field listed twice`);
    const held = new Set();
    const surfaced = new Set();
    for (const c of d.cases) {
      for (const k of Object.keys(c.expect?.fields ?? {})) {
        assert.ok(listed.has(k), `${c.name}: ${k} is neither a required nor an optional field of ${d.kind}`);
        held.add(k);
      }
      for (const k of ['sdk_code', 'sdk_error', 'retry']) if (c.expect?.[k] !== undefined) surfaced.add(k);
    }
    for (const r of required) assert.ok(held.has(r), `${f.name}: required field ${r} is in no verdict`);
    assert.deepEqual([...surfaced].sort(), [...(d.surface ?? [])].sort(), `${f.name}: surface`);
  }
});

test('header cases also come as whole frames: a header and the body its size announces', () => {
  for (const { c } of cases) {
    if (!['request_header', 'reply_header', 'eviction'].includes(c.kind)) {
      assert.equal(c.frame, undefined, c.name);
      continue;
    }
    const f = c.frame;
    assert.ok(f, `${c.name}: no frame`);
    const head = bytes(f.input);
    assert.equal(head.length + f.fill, f.length, c.name);
    assert.equal(f.expect.fields, undefined, `${c.name}: a frame's fields are the case's`);
    const input = bytes(c.input);
    assert.ok(input.subarray(0, 256).equals(head.subarray(0, 256)), `${c.name}: the frame starts with the case's header`);
    const size = head.length >= 256 ? head.readUInt32LE(48) : undefined;
    const usable = size >= 256 && size <= 64 << 20;
    if (usable) assert.equal(f.length, size, `${c.name}: a frame is as long as its size says`);
    else assert.equal(f.length, Math.min(input.length, 256), `${c.name}: a reader stops at a short header or an unusable size`);
    if (f.body === 'zeros') assert.ok(head.length === 256 && f.fill > 0, c.name);
    if (f.body === 'none') assert.ok(f.fill === 0 && head.length <= 256, c.name);
    if (f.body === 'login_reply') assert.equal(head.readUInt32LE(256), 0, `${c.name}: an empty result section first`);
    if (size !== undefined && !usable) assert.equal(f.expect.rule, 'frame.size', `${c.name}: the reader's size rule comes first`);
    else assert.deepEqual({ ...f.expect }, Object.fromEntries(Object.entries(c.expect).filter(([k]) => k !== 'fields')), c.name);
  }
});

test("the README's loader runs and yields every client-side case, header cases as whole frames", async () => {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const code = readme.match(/```js\n([\s\S]*?)```/)[1];
  const { clientCases } = await import('data:text/javascript,' + encodeURIComponent(code));
  const got = [...clientCases(dir)];
  const want = cases.filter(({ file }) => file.data.side === 'client');
  assert.equal(got.length, want.length);
  assert.ok(got.length >= 150, `${got.length} client-side cases`);
  for (const g of got) {
    const { c } = want.find(({ c }) => c.id === g.id);
    assert.equal(g.bytes.length, c.frame ? c.frame.length : c.length, g.name);
    if (c.frame && c.frame.body !== 'none') assert.equal(g.bytes.length, g.bytes.readUInt32LE(48), `${g.name}: a whole frame`);
    for (const k of g.required) assert.ok(g.expect.fields[k] !== undefined, g.name);
  }
});

test('lifecycle cases: hex frames, a stated server, nothing answered once closed', () => {
  const lifecycle = files.find((f) => f.data.kind === 'lifecycle');
  for (const c of lifecycle.data.cases) {
    assert.ok(lifecycle.data.servers[c.server], `${c.name}: server ${c.server} not stated`);
    assert.ok(c.steps.length > 0, c.name);
    const closedConns = new Set();
    for (const s of c.steps) {
      const conn = s.conn ?? 0;
      if (closedConns.has(conn)) assert.equal(s.out, 'closed', `${c.name}: answered after close`);
      if (s.out === 'closed' || s.out === 'dropped') assert.equal(s.then, s.out === 'closed' ? 'closed' : 'open', c.name);
      if (s.out.length > 7 && s.out !== 'dropped') {
        const out = bytes(s.out);
        assert.equal(out.readUInt32LE(48), out.length, `${c.name}: an answer's size is its length`);
        if (out[60] === 13) assert.equal(s.then, 'closed', `${c.name}: the server closes after an eviction`);
      }
      if (s.then === 'closed') closedConns.add(conn);
    }
  }
});

// framing classifies a step's bytes as a runner feeding a stream must.
function framing(b) {
  if (b.length < 256) return 'short';
  const size = b.readUInt32LE(48);
  if (size < 256 || size > 64 << 20) return 'bad_size';
  return b.length < size ? 'short' : b.length > size ? 'long' : 'whole';
}

test('lifecycle steps say how to feed them, what the server may fill, and which session they carry', () => {
  const lifecycle = files.find((f) => f.data.kind === 'lifecycle');
  for (const c of lifecycle.data.cases) {
    const sessions = new Map(); // step -> the session its login reply handed out
    c.steps.forEach((s, j) => {
      const inb = bytes(s.in);
      assert.equal(s.framing, framing(inb), `${c.name} step ${j}`);
      if (!c.source) assert.notEqual(s.framing, 'long', `${c.name} step ${j}: longer than its frame`);
      assert.equal(s.end === true, s.framing === 'short', `${c.name} step ${j}: the client ends its side after a short step`);
      if (s.framing === 'short' && !(j > 0 && c.steps[j - 1].then === 'closed')) assert.equal(s.out, 'closed', `${c.name} step ${j}`);
      const hex = s.out !== 'dropped' && s.out !== 'closed';
      if (!hex) assert.equal(s.free, undefined, `${c.name} step ${j}: free fields without an answer`);
      if (hex) {
        const out = bytes(s.out);
        const taken = new Set();
        for (const f of s.free ?? []) {
          assert.ok(f.offset + f.length <= out.length, `${c.name} step ${j}: ${f.field} past the answer`);
          for (let i = f.offset; i < f.offset + f.length; i++) {
            assert.ok(!taken.has(i), `${c.name} step ${j}: free fields overlap at ${i}`);
            taken.add(i);
          }
          assert.ok(![48, 60].some((o) => o >= f.offset && o < f.offset + f.length), `${c.name}: size and command are never free`);
          if (f.rule === 'session') {
            assert.ok(out[60] === 8 && out[208] === 1 && out.readUInt32LE(216) === 0, `${c.name} step ${j}: a session only in a login reply`);
            sessions.set(j, out.readBigUInt64LE(f.offset));
          }
          if (f.rule === 'bound') {
            assert.ok(out[60] === 8 && out[208] === 2 && out.readUInt32LE(216) === 0, `${c.name} step ${j}: a bound session only in a BIND_SESSION reply`);
            assert.ok([...sessions.values()].includes(out.readBigUInt64LE(f.offset)), `${c.name} step ${j}: binds a session no login handed out`);
          }
          if (f.rule === 'nonzero') assert.ok(out[60] === 13 && [1, 13].includes(out[255]), `${c.name}: only evictions 1 and 13 may carry another client id`);
        }
        if (out[60] === 8) for (const n of ['op', 'commit', 'request_checksum']) assert.ok((s.free ?? []).some((f) => f.field === n), `${c.name} step ${j}: ${n} is the server's`);
      }
      if (s.in_session) {
        const r = s.in_session;
        assert.ok(r.step < j && sessions.has(r.step), `${c.name} step ${j}: in_session names a step that handed out no session`);
        assert.equal(inb.readBigUInt64LE(r.offset), sessions.get(r.step) + BigInt(r.plus), `${c.name} step ${j}: the session written is the one named`);
      }
      if (s.out === 'dropped' && !c.source) {
        const next = c.steps.slice(j + 1).find((x) => x.out !== 'dropped');
        assert.ok(next && next.out !== 'closed', `${c.name} step ${j}: a dropped step is seen when the next step's answer comes first`);
      }
    });
  }
});

// Where section 5 puts the header fields an error can name, by kind.
const headerOffsets = {
  request_header: { command: 60, size: 48, client: 128, request: 168, operation: 176, session: 184, code: 196 },
  reply_header: { command: 60, size: 48, operation: 208 },
  eviction: { command: 60, size: 48, client: 128, reason: 255 },
};

test("error offsets follow the convention they name, each one of WIRE.md section 9's", () => {
  const conventions = new Map(readJSON('rules.json').conventions.map((c) => [c.id, c]));
  assert.ok(conventions.size >= 9);
  for (const c of conventions.values()) if (c.id !== 'text_position') assert.equal(c.section, '9', c.id);
  const used = new Set();
  for (const { c } of cases) {
    for (const e of [c.expect, c.frame?.expect]) {
      if (e?.verdict !== 'error') continue;
      assert.ok(conventions.has(e.convention), `${c.name}: convention ${e.convention}`);
      used.add(e.convention);
      const b = bytes(c.input);
      const frameStart = c.kind === 'login_reply_frame' ? 256 : 0;
      switch (e.convention) {
        case 'header': assert.ok(e.field === 'header' && e.offset === b.length && b.length < 256, c.name); break;
        case 'start': assert.equal(e.sentinel, 'truncated', c.name); break;
        case 'window': assert.equal(e.offset, 144, c.name); break;
        case 'result_count': assert.equal(e.offset, frameStart, c.name); break;
        case 'result_entries': assert.equal(e.offset, frameStart + 4, c.name); break;
        case 'trailing': assert.ok(e.offset < b.length, `${c.name}: the first trailing byte is in the input`); break;
        case 'utf8': assert.ok(b[e.offset] >= 0x80, c.name); break;
        case 'reserved': assert.notEqual(b[e.offset], 0, c.name); break;
        case 'text_position': assert.equal(c.kind, 'version_text', c.name); break;
        case 'field': {
          const at = headerOffsets[c.kind]?.[e.field];
          if (at !== undefined) assert.equal(e.offset, at, `${c.name}: ${e.field} sits at ${at}`);
        }
      }
    }
  }
  assert.deepEqual([...used].sort(), [...conventions.keys()].sort(), 'every convention is used');
});

test('every rule of WIRE.md is exercised; every validity rule by an error case naming it', () => {
  const ids = new Set(rules.map((r) => r.id));
  const named = new Set();
  const reported = new Set();
  for (const { c } of cases) {
    for (const r of c.rules) {
      assert.ok(ids.has(r), `${c.name}: unknown rule ${r}`);
      named.add(r);
    }
    if (c.expect?.verdict === 'error') {
      reported.add(c.expect.rule);
      const r = rules.find((x) => x.id === c.expect.rule);
      if (!c.source) assert.equal(r?.sentinel, c.expect.sentinel, `${c.name}: the rule's sentinel`);
    }
  }
  const validity = rules.filter((r) => r.class === 'validity');
  for (const r of validity) assert.ok(reported.has(r.id), `validity rule ${r.id} has no error case`);
  for (const r of rules.filter((r) => !r.optional && r.class !== 'validity')) assert.ok(named.has(r.id), `rule ${r.id} has no case`);
  assert.ok(validity.length >= 50);
});

test("README's table of decided discrepancies matches the cases", () => {
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const rows = [...readme.matchAll(/^\| (D\d+[a-z]?) \| (\d+) \|/gm)];
  const decided = cases.filter(({ c }) => c.discrepancy);
  assert.equal(rows.length, decided.length);
  for (const [, d, id] of rows) {
    const hit = decided.find(({ c }) => c.id === Number(id));
    assert.ok(hit, `${d}: no case ${id}`);
    assert.equal(hit.c.discrepancy, d);
  }
});
