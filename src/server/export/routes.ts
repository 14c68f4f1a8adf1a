import { Hono, type Context } from 'hono';
import { every } from 'hono/combine';
import {
  BUNDLE_FILE_SUFFIX,
  exportPaths,
  ROUTES,
  startJobRequestSchema,
} from '../../protocol/index.js';
import { requireKey, requirePlan, type Org } from '../http/auth.js';
import type { DocsSite } from '../site/docs.js';
import { parsePagePath } from '../site/page-path.js';
import { errorResponse, jsonBody, validJson } from '../http/middleware.js';
import { tooManyRequests, type RateLimiter } from '../http/rate-limit.js';
import { isJobId, publicJob, type ExportService } from './jobs.js';
import type { createSigner } from './signing.js';
import { selectPages } from './site-export.js';

export interface ExportRouteDeps {
  service: ExportService;
  signer: Promise<ReturnType<typeof createSigner>>;
  orgByKey: Map<string, Org>;
  site(domain: string): { org: string; docs: DocsSite } | undefined;
  now: () => number;
  origin(c: Context): string;
  /** How long a bundle link works. */
  linkTtlSeconds: number;
  maxBodyBytes: number;
  /** Prefixes the docs are served under, allowed in `paths` (`/docs/guides/x`). */
  basePaths: readonly string[];
  /** Jobs one organisation may have queued or running at once. */
  maxActivePerOrg: number;
  /** Counts the jobs an organisation starts (per hour). */
  startLimiter: RateLimiter;
}

/**
 * SPEC §2.5's `domain` as other services of this API accept it: a bare hostname or identifier, no
 * scheme, port or path.
 */
const DOMAIN = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/;

/** The static export operations (SPEC §4.2–4.4) and the presigned download they hand out. */
export function exportRoutes(deps: ExportRouteDeps) {
  const app = new Hono<{ Variables: { org: Org } }>();

  // SPEC §5: admin keys only, and only on the Enterprise plan; the presigned download needs neither.
  const admin = every(
    requireKey(deps.orgByKey, 'admin'),
    requirePlan('enterprise', 'Static export requires an Enterprise plan.'),
  );

  const ownJob = async (c: Context, org: Org) => {
    const job = await deps.service.get(c.req.param('jobId') ?? '');
    return job && job.org === org.id ? job : undefined;
  };
  const jobNotFound = (c: Context) =>
    errorResponse(
      'job_not_found',
      `No export job ${JSON.stringify((c.req.param('jobId') ?? '').slice(0, 40))}.`,
    );

  app.post(
    ROUTES.exportJobs,
    admin,
    jsonBody(deps.maxBodyBytes),
    validJson(startJobRequestSchema, ({ domain }) =>
      DOMAIN.test(domain)
        ? undefined
        : 'domain: give the bare domain identifier, without scheme, port or path.',
    ),
    async (c) => {
      const { org } = c.var;
      const { domain, version, paths } = c.req.valid('json');
      const site = deps.site(domain);
      if (!site || site.org !== org.id)
        return errorResponse(
          'domain_not_found',
          `No docs site is configured for domain "${domain}".`,
        );
      let normalized: string[] | undefined;
      if (paths) {
        normalized = paths.map((path) => parsePagePath(path, deps.basePaths));
        const pages = selectPages(site.docs, normalized);
        const missing = paths.filter((_, i) => !pages[i]);
        if (missing.length)
          return errorResponse(
            'invalid_request',
            `paths: no such page: ${missing
              .slice(0, 5)
              .map((p) => JSON.stringify(p.slice(0, 100)))
              .join(', ')}.`,
          );
        normalized = [...new Set(normalized)];
      }
      // One organisation cannot fill the export queue for everyone: a cap on waiting jobs, then a rate.
      if ((await deps.service.active(org.id)).length >= deps.maxActivePerOrg)
        return tooManyRequests(
          `This organisation already has ${deps.maxActivePerOrg} exports queued or running. Wait for one to finish.`,
          60,
        );
      const started = await deps.startLimiter.hit(org.id, deps.now());
      if (!started.ok)
        return tooManyRequests(
          'Too many exports started by this organisation this hour.',
          started.retryAfterSeconds,
        );
      const job = await deps.service.start(org.id, {
        domain,
        ...(version ? { version } : {}),
        ...(normalized ? { paths: normalized } : {}),
      });
      return c.json(publicJob(job), 202);
    },
  );

  app.get(ROUTES.exportJob, admin, async (c) => {
    const job = await ownJob(c, c.var.org);
    return job ? c.json(publicJob(job)) : jobNotFound(c);
  });

  app.post(ROUTES.exportBundle, admin, async (c) => {
    const job = await ownJob(c, c.var.org);
    if (!job) return jobNotFound(c);
    if (job.status !== 'completed' || job.sizeBytes === undefined) {
      const detail =
        job.status === 'failed'
          ? 'it failed; start a new export'
          : `it is ${job.status}; poll the job until it is completed`;
      return errorResponse(
        'job_not_completed',
        `The bundle can be generated once the job is completed: ${detail}.`,
      );
    }
    const expires = Math.floor(deps.now() / 1000) + deps.linkTtlSeconds;
    // Object storage signs its own links (SigV4); otherwise this server's HMAC route serves the bundle.
    const bundleUrl = deps.service.presignBundle
      ? await deps.service.presignBundle(job.jobId, deps.linkTtlSeconds, new Date(deps.now()))
      : `${deps.origin(c)}${exportPaths.bundleFile(job.jobId, { expires, signature: (await deps.signer).sign(job.jobId, expires) })}`;
    return c.json({
      jobId: job.jobId,
      bundleUrl,
      sizeBytes: job.sizeBytes,
      expiresAt: new Date(expires * 1000).toISOString(),
    });
  });

  // The presigned link: no Authorization header, the signature is the credential.
  app.get(ROUTES.exportBundleFile, async (c) => {
    const file = c.req.param('file') ?? '';
    const jobId = file.endsWith(BUNDLE_FILE_SUFFIX)
      ? file.slice(0, -BUNDLE_FILE_SUFFIX.length)
      : file;
    const expires = Number(c.req.query('expires'));
    const signature = c.req.query('signature') ?? '';
    if (
      !isJobId(jobId) ||
      !Number.isSafeInteger(expires) ||
      !(await deps.signer).verify(jobId, expires, signature)
    ) {
      return errorResponse(
        'link_invalid',
        'This bundle link is not valid. Generate a new one with the bundle operation.',
      );
    }
    if (deps.now() >= expires * 1000)
      return errorResponse(
        'link_expired',
        'This bundle link has expired. Generate a fresh one with the bundle operation; the export itself is kept.',
      );
    const job = await deps.service.get(jobId);
    if (!job || job.status !== 'completed' || job.sizeBytes === undefined) return jobNotFound(c);
    const stream = await deps.service.openBundle(jobId);
    if (!stream) return jobNotFound(c);
    return new Response(stream, {
      headers: {
        'Content-Type': 'application/gzip',
        'Content-Length': String(job.sizeBytes),
        'Content-Disposition': 'attachment; filename="bundle.tar.gz"',
        'Cache-Control': 'private, no-store',
      },
    });
  });

  return app;
}
