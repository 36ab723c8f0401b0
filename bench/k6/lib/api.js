// Shared helpers of the LogoVote k6 scripts: the API calls a browser makes, with the same headers.
/* global __ENV */
import http from 'k6/http';
import { check } from 'k6';

/** The gateway; an IPv4 literal so k6 --local-ips (one loopback address per VU) can bind. */
export const BASE_URL = (__ENV.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');

const CSRF_HEADER = 'X-CSRF-Token';
const CSRF_COOKIE = 'lv_csrf';
const VOTER_PASS_COOKIE = 'lv_voter_pass';
const FINGERPRINT_HEADER = 'X-Client-Fingerprint';

/** The 16 lowercase hexadecimal characters of a fingerprint, from two non-negative integers. */
export function fingerprint(high, low) {
  const hex8 = (n) => (n >>> 0).toString(16).padStart(8, '0');
  return hex8(high) + hex8(low);
}

function asciiBytes(text) {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

/**
 * A multipart/form-data body with several files under one field name, as the browser's FormData
 * sends them (k6's object bodies allow one file per field).
 * files: [{ field, name, type, data: ArrayBuffer }], fields: { name: value }.
 */
export function multipartBody(files, fields = {}) {
  const boundary = `----logovote-k6-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`;
  const parts = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(asciiBytes(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      asciiBytes(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
    );
    parts.push(new Uint8Array(file.data));
    parts.push(asciiBytes('\r\n'));
  }
  parts.push(asciiBytes(`--${boundary}--\r\n`));
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    body.set(part, offset);
    offset += part.length;
  }
  return { body: body.buffer, contentType: `multipart/form-data; boundary=${boundary}` };
}

const CONTENT_TYPES = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', svg: 'image/svg+xml' };

/** A logo for multipartBody, from a file the calling script open()ed in its init context. */
export function logoFile(name, data) {
  const extension = name.split('.').pop().toLowerCase();
  return { field: 'logos', name: name.split('/').pop(), type: CONTENT_TYPES[extension] || 'application/octet-stream', data };
}

/** POST /api/sessions with the given logos; returns the response (201 with the created session). */
export function postPoll(logos, tags = { name: 'create' }, feedbackPrompt = 'Which logo do you like best?') {
  const { body, contentType } = multipartBody(logos, { feedbackPrompt });
  return http.post(`${BASE_URL}/api/sessions`, body, { headers: { 'Content-Type': contentType }, tags, timeout: '120s' });
}

/**
 * Creates a poll and returns { sessionId, logoIds, filenames, csrfToken }; throws when the gateway
 * refuses it. The token is the creator's: valid with the lv_csrf cookie now in this VU's jar.
 */
export function createPoll(logos) {
  const res = postPoll(logos, { name: 'setup_create' });
  if (res.status !== 201) throw new Error(`creating a poll failed: HTTP ${res.status} ${res.body}`);
  const session = res.json();
  return {
    sessionId: session.sessionId,
    logoIds: session.logos.map((logo) => logo.id),
    filenames: session.logos.map((logo) => logo.filename),
    csrfToken: session.csrfToken,
  };
}

/** The anti-forgery cookie of this VU's jar (set by the first POST or GET of a session). */
export function csrfCookie() {
  const cookie = http.cookieJar().cookiesForURL(BASE_URL)[CSRF_COOKIE];
  if (!cookie || cookie.length === 0) throw new Error(`no ${CSRF_COOKIE} cookie`);
  return cookie[0];
}

/** Makes this VU present the anti-forgery cookie `value` (the one the tokens were issued with). */
export function useCsrfCookie(value) {
  http.cookieJar().set(BASE_URL, CSRF_COOKIE, value);
}

/**
 * The request cookies of one browser among the many a VU plays: its own voter pass (an empty one before
 * its first vote, so the server finds it by fingerprint and gives it one), whatever the VU's jar holds.
 */
export function voterPassCookies(voterPass) {
  return { [VOTER_PASS_COOKIE]: { value: voterPass || '', replace: true } };
}

/** The voter pass a response issued, if any. */
export function issuedVoterPass(res) {
  const issued = res.cookies[VOTER_PASS_COOKIE];
  return issued && issued.length > 0 ? issued[0].value : undefined;
}

/** GET /api/sessions/{id}: the session with its counts and this browser's anti-forgery token (sets the lv_csrf cookie). */
export function loadSession(sessionId, tags = { name: 'session' }) {
  const res = http.get(`${BASE_URL}/api/sessions/${sessionId}`, { headers: { Accept: 'application/json' }, tags });
  check(res, { 'session loaded': (r) => r.status === 200 });
  return res;
}

export function myVote(sessionId, voter, tags = { name: 'my_vote' }) {
  const res = http.get(`${BASE_URL}/api/sessions/${sessionId}/my-vote`, {
    headers: { Accept: 'application/json', [FINGERPRINT_HEADER]: voter },
    tags,
  });
  check(res, { 'my-vote answered': (r) => r.status === 200 });
  return res;
}

/** POST /api/sessions/{id}/vote as the browser does (token header, fingerprint header, JSON body). */
export function castVote(sessionId, csrfToken, voter, logoId, tags = { name: 'vote' }, timeout = '60s', cookies = undefined) {
  const res = http.post(`${BASE_URL}/api/sessions/${sessionId}/vote`, JSON.stringify({ logoId }), {
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', [CSRF_HEADER]: csrfToken, [FINGERPRINT_HEADER]: voter },
    tags,
    timeout,
    ...(cookies ? { cookies } : {}),
  });
  check(res, { 'vote recorded': (r) => r.status === 200 });
  return res;
}
