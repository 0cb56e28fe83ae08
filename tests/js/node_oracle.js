// node_oracle.js - libpct against V8's (JavaScript's) own functions on
// thousands of random and adversarial strings, for every implementation
// libpct lists:
//
//   encodeURIComponent(s)  == pct_encode(utf8(s), uri_component, PCT_UTF8)
//   encodeURI(s)           == pct_encode(utf8(s), uri, PCT_UTF8)
//       a lone surrogate throws URIError <=> PCT_INVALID_UTF8 at its offset
//       (the input bytes are the generalized UTF-8 of s, where a lone
//       surrogate is the ill-formed ED A0..BF xx)
//   decodeURIComponent(t)  == pct_decode(utf8(t), PCT_STRICT | PCT_UTF8)
//   decodeURI(t)           == pct_decode_except(utf8(t), ";/?:@&=+$,#",
//                                               PCT_STRICT | PCT_UTF8)
//       URIError <=> an error status (JS reports no offset)
//   unescape(t)            == pct_decode(t, PCT_PERCENT_U), where comparable
//       (see unescapeComparable)
//   new URLSearchParams([["k", s]]).toString() == "k=" +
//       pct_encode(utf8(s), form, PCT_PLUS)
//   new URLSearchParams("k=" + t).get("k") ==
//       pct_decode(utf8(t), PCT_PLUS | PCT_UTF8_REPLACE)
//
// JS strings are UTF-16: the generators make well-formed strings (plus, for
// the encoders, some lone surrogates) and the comparisons are on UTF-8 bytes.
//
// usage: node node_oracle.js PATH/TO/pct_oracle_driver
// Environment: PCT_TEST_SEED, PCT_TEST_QUICK, MESON_EXE_WRAPPER.
'use strict';

const { spawnSync } = require('child_process');

const PLUS = 1, STRICT = 2, UTF8 = 4, PERCENT_U = 16, UTF8_REPLACE = 32;

// ---------------------------------------------------------------------------
// PRNG (mulberry32), seeded
// ---------------------------------------------------------------------------

const seedText = process.env.PCT_TEST_SEED || String(Math.floor(Math.random() * 2 ** 32));
const seed = Number(BigInt(seedText) & 0xffffffffn);
const quick = !['', '0', undefined].includes(process.env.PCT_TEST_QUICK);
let state = seed >>> 0;
function random() {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const below = (n) => Math.floor(random() * n);
const pick = (a) => a[below(a.length)];

// ---------------------------------------------------------------------------
// Strings and bytes
// ---------------------------------------------------------------------------

// Generalized UTF-8: a lone surrogate becomes its 3-byte (ill-formed) form.
// Returns the bytes and the offset of the first lone surrogate (or -1).
function wtf8(s) {
  const out = [];
  let lone = -1;
  for (const ch of s) { // iterates code points; lone surrogates come alone
    const c = ch.codePointAt(0);
    if (c >= 0xd800 && c <= 0xdfff && lone < 0) lone = out.length;
    if (c < 0x80) out.push(c);
    else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
    else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  return { bytes: Buffer.from(out), lone };
}

function randomCodePoint() {
  const r = random();
  if (r < 0.45) return 0x20 + below(0x5f);
  if (r < 0.55) return pick([0x00, 0x09, 0x0a, 0x7f, 0x25, 0x2b, 0x20, 0x23, 0x26, 0x3d, 0x2f, 0x3f]);
  if (r < 0.7) return 0x80 + below(0x780);
  if (r < 0.85) {
    for (;;) {
      const c = 0x800 + below(0x10000 - 0x800);
      if (c < 0xd800 || c > 0xdfff) return c;
    }
  }
  if (r < 0.95) return 0x10000 + below(0x100000);
  return pick([0xfeff, 0xfffd, 0xffff, 0x10000, 0x10ffff, 0x20ac, 0x1f600, 0x7ff, 0x800]);
}

function randomString(maxlen, loneSurrogates) {
  const n = below(maxlen + 1);
  let s = '';
  for (let i = 0; i < n; i++) {
    if (loneSurrogates && random() < 0.02) s += String.fromCharCode(0xd800 + below(0x800));
    else s += String.fromCodePoint(randomCodePoint());
  }
  // (randomCodePoint never returns a surrogate, so without loneSurrogates s
  // is well-formed; with them, a high one may pair up with a following low
  // one, which is then simply a valid pair on both sides)
  return s;
}

const hex2 = (b) => (random() < 0.5 ? b.toString(16).toUpperCase() : b.toString(16)).padStart(2, '0');
const escByte = (b) => '%' + hex2(b);

// An ASCII-mostly string of escapes (valid, truncated and invalid UTF-8),
// malformed '%' forms, '+', and some literal non-ASCII characters.
function randomEncoded(maxlen) {
  const target = below(maxlen + 1);
  const bad = ['%', '%4', '%G1', '%zz', '%%', '%%4', '%u00e9', '+', '%2B', '%2b', '%25', '%20',
               '%-1', '%2F', '%3b', '%23', '%3F', '%26', '%3D', '%40', '%24', '%2C', '%3A'];
  let t = '';
  while (t.length < target) {
    const r = below(9);
    if (r <= 1) t += escByte(0x80 + below(0x80));
    else if (r === 2) t += escByte(below(256));
    else if (r <= 4) {
      let bytes = [...wtf8(String.fromCodePoint(randomCodePoint())).bytes];
      if (bytes.length > 1 && random() < 0.15) bytes = bytes.slice(0, 1 + below(bytes.length - 1));
      t += bytes.map(escByte).join('');
    } else if (r === 5) t += String.fromCodePoint(randomCodePoint());
    else if (r === 6) t += String.fromCharCode(0x20 + below(0x5f));
    else t += pick(bad);
  }
  return t;
}

// Pieces for unescape(): %XX, %uXXXX (any unit), surrogate pairs, malformed.
function randomUnescapeInput(maxlen) {
  const target = below(maxlen + 1);
  const hex4 = (u) => u.toString(16).padStart(4, '0');
  const bad = ['%', '%u', '%u12', '%uD8', '%G1', '%zz', '%u12G4', '%%', 'u', '%4'];
  let t = '';
  while (t.length < target) {
    const r = below(7);
    if (r === 0) t += escByte(below(0x80));
    else if (r === 1) t += escByte(below(256));
    else if (r === 2) t += '%u' + (random() < 0.5 ? hex4(below(0x10000)) : hex4(below(0x10000)).toUpperCase());
    else if (r === 3) {
      const cp = 0x10000 + below(0x100000);
      t += '%u' + hex4(0xd800 + ((cp - 0x10000) >> 10)) + '%u' + hex4(0xdc00 + ((cp - 0x10000) & 0x3ff));
    } else if (r === 4) t += String.fromCharCode(0x20 + below(0x5f));
    else t += pick(bad);
  }
  return t;
}

// unescape() maps %XX to the code unit U+00XX and %uXXXX to a code unit,
// while libpct writes bytes: %XX is byte XX, %uXXXX is UTF-8, and a lone
// surrogate is copied as written. The two agree (on UTF-8 bytes) exactly when
// every %XX is ASCII and every surrogate %u escape is part of a high+low pair.
// Tokenized as unescape() does it (ECMA-262 B.2.1.2): at '%', %uXXXX first,
// then %XX, else a literal '%'.
function unescapeComparable(t) {
  const re = /%u([0-9a-fA-F]{4})|%([0-9a-fA-F]{2})/g;
  const toks = [];
  let m;
  while ((m = re.exec(t)) !== null)
    toks.push({ at: m.index, end: re.lastIndex, u: m[1] ? parseInt(m[1], 16) : -1,
                b: m[2] ? parseInt(m[2], 16) : -1 });
  for (let i = 0; i < toks.length; i++) {
    const k = toks[i];
    if (k.b >= 0x80) return false;
    if (k.u >= 0xd800 && k.u <= 0xdbff) {
      const n = toks[i + 1];
      if (!n || n.at !== k.end || n.u < 0xdc00 || n.u > 0xdfff) return false;
      i++; // the pair
    } else if (k.u >= 0xdc00 && k.u <= 0xdfff) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------
// Cases
// ---------------------------------------------------------------------------

const cases = []; // { what, cmd: [op, flags, set, bytes], want: {status, count?, out?, error?} }
const utf8 = (s) => Buffer.from(s, 'utf8');
const ascii = (s) => Buffer.from(s, 'latin1');

function jsResult(f) {
  try {
    return { ok: true, value: f() };
  } catch (e) {
    if (!(e instanceof URIError)) throw e;
    return { ok: false };
  }
}

const count = quick ? 200 : 3000;
for (let i = 0; i < count; i++) {
  const maxlen = i % 50 === 0 ? 200 : 16;

  // the encoders, lone surrogates included
  const s = randomString(maxlen, true);
  const w = wtf8(s);
  for (const [fn, set] of [[encodeURIComponent, 'uri-component'], [encodeURI, 'uri']]) {
    const r = jsResult(() => fn(s));
    const want = r.ok ? { status: 0, out: ascii(r.value) } : { status: 2, count: w.lone };
    if (r.ok !== (w.lone < 0)) throw new Error('generator: lone surrogate bookkeeping');
    cases.push({ what: fn.name, cmd: ['enc', UTF8, set, w.bytes], want });
  }

  // URLSearchParams serialization (USVString: well-formed strings only)
  const sw = randomString(maxlen, false);
  const ser = new URLSearchParams([['k', sw]]).toString();
  cases.push({ what: 'URLSearchParams.toString', cmd: ['enc', PLUS, 'form', utf8(sw)],
               want: { status: 0, out: ascii(ser.slice(2)) } });

  // the decoders
  const t = randomEncoded(maxlen);
  for (const [fn, keep] of [[decodeURIComponent, '-'], [decodeURI, 'js-reserved']]) {
    const r = jsResult(() => fn(t));
    cases.push({ what: fn.name, cmd: ['dec', STRICT | UTF8, keep, utf8(t)],
                 want: r.ok ? { status: 0, out: utf8(r.value) } : { error: true } });
  }

  // URLSearchParams parsing: '+' then percent-decode then UTF-8 decode with
  // replacement, as the WHATWG urlencoded parser does. '&' would split the
  // value. Only ASCII: when its decodeURIComponent fast path throws, Node
  // (v20) falls back to querystring.unescapeBuffer, which truncates each
  // UTF-16 code unit to a byte (U+A57B becomes '{'), unlike the standard.
  const tq = t.replace(/&/g, '_').replace(/[^\x00-\x7f]/g, '');
  const got = new URLSearchParams('k=' + tq).get('k');
  cases.push({ what: 'URLSearchParams.get', cmd: ['dec', PLUS | UTF8_REPLACE, '-', utf8(tq)],
               want: { status: 0, out: utf8(got) } });

  // unescape
  const tu = randomUnescapeInput(maxlen);
  if (unescapeComparable(tu))
    cases.push({ what: 'unescape', cmd: ['dec', PERCENT_U, '-', ascii(tu)],
                 want: { status: 0, out: utf8(unescape(tu)) } });
}

// ---------------------------------------------------------------------------
// Run the driver once per implementation
// ---------------------------------------------------------------------------

function driverArgv(args) {
  const wrapper = (process.env.MESON_EXE_WRAPPER || '').split(' ').filter((x) => x);
  return [...wrapper, process.argv[2], ...args];
}

function spawn(args, input) {
  const argv = driverArgv(args);
  const r = spawnSync(argv[0], argv.slice(1), { input, maxBuffer: 1 << 30 });
  if (r.error) {
    console.log(`cannot run the driver: ${r.error.message}; skipping`);
    process.exit(77);
  }
  if (r.status !== 0) throw new Error(`driver exited with ${r.status}: ${r.stderr}`);
  return r.stdout.toString('latin1');
}

// decodeURI's keep set, in the driver's "x" + 64 hex digits form
function setArg(chars) {
  const bits = Buffer.alloc(32);
  for (const c of chars) bits[c.charCodeAt(0) >> 3] |= 1 << (c.charCodeAt(0) & 7);
  return 'x' + bits.toString('hex');
}
const jsReserved = setArg(';/?:@&=+$,#');

if (process.argv.length !== 3) {
  console.log('usage: node node_oracle.js PATH/TO/pct_oracle_driver');
  process.exit(2);
}
console.log(`node_oracle: seed ${seedText} (PCT_TEST_SEED=${seedText} reproduces)` +
            `${quick ? ', quick mode' : ''}; node ${process.version}`);
const input = cases.map(({ cmd: [op, flags, set, bytes] }) =>
  `${op} ${flags} ${set === 'js-reserved' ? jsReserved : set} ${bytes.length ? bytes.toString('hex') : '-'}\n`).join('');
{
  const kinds = {};
  for (const c of cases) kinds[c.what] = (kinds[c.what] || 0) + 1;
  console.log('  cases: ' + Object.entries(kinds).map(([k, v]) => `${k} ${v}`).join(', '));
}
const impls = spawn(['--list'], '').split('\n').filter((x) => x);
let passed = 0, failed = 0;
for (const impl of impls) {
  const lines = spawn(['--impl', impl], input).split('\n').filter((x) => x);
  if (lines.length !== cases.length) throw new Error(`driver answered ${lines.length} of ${cases.length}`);
  let shown = 0;
  cases.forEach((c, k) => {
    const [st, cnt, out] = lines[k].split(' ');
    const status = Number(st), n = Number(cnt), bytes = out === '-' ? Buffer.alloc(0) : Buffer.from(out, 'hex');
    const w = c.want;
    const ok = w.error ? status !== 0
      : status === w.status && (w.count === undefined || n === w.count) &&
        (w.out === undefined || bytes.equals(w.out));
    if (ok) {
      passed++;
      return;
    }
    failed++;
    if (shown++ < 15) {
      console.log(`FAIL [impl ${impl}] ${c.what}: ${c.cmd[0]} flags=${c.cmd[1]} set=${c.cmd[2]}\n` +
                  `    input    ${c.cmd[3].toString('hex')} ${JSON.stringify(c.cmd[3].toString('latin1'))}\n` +
                  `    expected ${w.error ? 'an error' : `status=${w.status} count=${w.count} ` +
                    (w.out ? w.out.toString('hex') : '')}\n` +
                  `    got      status=${status} count=${n} ${bytes.toString('hex')}`);
    }
  });
  console.log(`  implementation ${impl}: ${cases.length} cases`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
