import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LocalCrm, LocalCrmContents } from './local-crm';
import { isLoopback } from './relay-control';

/** What the local CRM holds, as JSON, for `npm run crm:local` (a separate process). */
export const LOCAL_CRM_PATH = '/local/crm';

/** The local CRM's token, for `npm run crm:local -- token` (a script connecting to it). */
export const LOCAL_CRM_TOKEN_PATH = `${LOCAL_CRM_PATH}/token`;

/** The read-only page of what the local CRM holds. */
export const LOCAL_CRM_PAGE = '/crm';

/** How often the page reloads itself, so notes and statuses show as Switchboard writes them. */
const PAGE_REFRESH_SECONDS = 5;

/**
 * The views of the local CRM on the service's port: `GET /crm`, a page of
 * its contacts with their lead status and the notes, e-mails and calls on
 * them; `GET /local/crm`, the same as JSON; `GET /local/crm/token`, its
 * private app token (the one the banner prints), so a script can connect
 * to it. Read-only, and only for clients on this machine (loopback):
 * anyone else gets 404, as if the paths did not exist. The page and the
 * listing never show the token.
 */
export function localCrmControl(crm: LocalCrm): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!.replace(/(.)\/+$/, '$1');
    if (path !== LOCAL_CRM_PATH && path !== LOCAL_CRM_PAGE && path !== LOCAL_CRM_TOKEN_PATH) return false;
    req.resume();
    if (!isLoopback(req.socket.remoteAddress)) {
      sendJson(res, 404, { success: false, error: { code: 'NOT_FOUND', message: 'Not found.' } });
      return true;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      sendJson(res, 405, {
        success: false,
        error: { code: 'METHOD_NOT_ALLOWED', message: 'GET only: the local CRM views are read-only.' },
      });
      return true;
    }
    if (path === LOCAL_CRM_TOKEN_PATH) {
      sendJson(res, 200, { success: true, data: { access_token: crm.token } });
      return true;
    }
    const contents = crm.contents();
    if (path === LOCAL_CRM_PATH) sendJson(res, 200, { success: true, data: contents });
    else {
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
        })
        .end(req.method === 'HEAD' ? undefined : crmPage(contents));
    }
    return true;
  };
}

/** The page: the contacts, each with its lead status and its engagements, oldest first. */
export function crmPage(contents: LocalCrmContents): string {
  const contacts = contents.contacts.map((contact) => {
    const engagements =
      contact.engagements.length === 0
        ? '<p class="none">No notes, e-mails or calls yet.</p>'
        : `<ol>${contact.engagements
            .map(
              (engagement) =>
                `<li class="${engagement.source}"><span class="kind">${engagement.kind}</span> <time>${html(engagement.at)}</time>` +
                `${engagement.source === 'demo' ? ' <span class="tag">demo data</span>' : ' <span class="tag api">written by Switchboard</span>'}` +
                `${engagement.subject ? ` <strong>${html(engagement.subject)}</strong>` : ''}<div class="text">${html(engagement.text)}</div></li>`,
            )
            .join('')}</ol>`;
    const details = [contact.job_title, contact.company, contact.email, contact.phone].filter(Boolean).map((value) => html(value!));
    return (
      `<section id="contact-${html(contact.id)}"><h2>${html(contact.name)} <small>contact ${html(contact.id)}</small></h2>` +
      `<p>${details.join(' · ')}</p><p>Lead status: <strong class="status">${html(contact.lead_status ?? '(none)')}</strong>` +
      ` <small>updated ${html(contact.updated_at)}</small></p>${engagements}</section>`
    );
  });
  const lists = contents.lists.map((list) => `${html(list.name)} (list id ${html(list.id)}, ${list.size} contacts)`).join('; ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="${PAGE_REFRESH_SECONDS}">
<title>Local CRM (not HubSpot)</title>
<style>body{font:15px/1.45 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
.banner{background:#fff4d6;border:1px solid #e0c060;padding:.6rem 1rem}section{border-top:1px solid #ddd;margin-top:1rem}
.kind{font-weight:600;text-transform:uppercase;font-size:.8em}.tag{font-size:.8em;color:#666}.tag.api{color:#0a6b2e}
.text{white-space:pre-wrap;margin:.2rem 0 .6rem}.none{color:#666}small{color:#666;font-weight:normal}</style></head>
<body><h1>Local CRM</h1>
<p class="banner">This is the <strong>local CRM</strong> of <code>npm start</code>: a HubSpot-compatible server on this machine
(${html(contents.base_url)}, portal ${contents.portal_id}), not HubSpot. Nothing here leaves this machine, and it is gone when
<code>npm start</code> stops. This page reloads every ${PAGE_REFRESH_SECONDS} s.</p>
<p>Lists: ${lists || 'none'}.</p>
${contacts.join('\n') || '<p class="none">No contacts.</p>'}
</body></html>
`;
}

function html(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }).end(JSON.stringify(body));
}
