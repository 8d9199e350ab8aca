import type { Job } from 'bullmq';
import { RequestContext, type SystemCaller } from '../tenancy/request-context';

/**
 * Runs a job's work as the system caller `caller` (the entity, mode and scopes the job acts for),
 * under the request id `job_<job id>` that its logs and events carry.
 */
export const runJobAs = <T>(job: Pick<Job, 'id'>, caller: SystemCaller, work: () => T): T =>
  RequestContext.runAsSystem(caller, work, `job_${job.id ?? ''}`);
