import type {
  ConfigMap,
  Container,
  PodSpec,
  Probe,
  Secret,
  Service,
  ServicePort,
} from 'kubernetes-types/core/v1';
import type { Deployment } from 'kubernetes-types/apps/v1';
import type { PodDisruptionBudget } from 'kubernetes-types/policy/v1';

/**
 * The Kubernetes deployment of the API, typed with `kubernetes-types` so `npm run typecheck`
 * checks every field; `npm run deploy:render` writes them to deploy/kubernetes/erp-api.yaml.
 *
 * - `erp-api` (Deployment, 2 replicas, Service on 3000 / sandbox 3001) and `erp-dispatcher`
 *   (Deployment, 2 replicas): readiness on /ready (database and queue answer), liveness on
 *   /health (the process answers), resource requests and limits, a PodDisruptionBudget each.
 * - `migrate` (an init container of every pod of both Deployments): applies pending migrations
 *   before the pod's process starts, so no pod of a release serves before its schema is in place.
 *   Migration runs take a PostgreSQL advisory lock: the first pod of a release applies them, the
 *   others wait for it and find nothing pending. There is no migration Job, whose immutable pod
 *   template would refuse the next release's `kubectl apply`.
 * - `erp-config` (ConfigMap): the settings that are not secret.
 * - `erp-secrets` (Secret) is not in the applied file: SECRETS_KEY, METRICS_TOKEN, DATABASE_URL
 *   and REDIS_URL are created with `kubectl create secret generic erp-secrets --from-literal=...`
 *   (docs/deployment.md), so applying the file again never overwrites them.
 *   deploy/kubernetes/erp-secrets.example.yaml shows its shape with placeholders the apps refuse.
 */

export const IMAGE = 'erp-integration-api:1.0.0';
const LABELS = { 'app.kubernetes.io/part-of': 'erp-integration-api' };
const labelsOf = (component: string) => ({ ...LABELS, 'app.kubernetes.io/component': component });

export const config: ConfigMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'erp-config', labels: LABELS },
  data: {
    NODE_ENV: 'production',
    HOST: '0.0.0.0',
    PORT: '3000',
    SANDBOX_PORT: '3001',
    DISPATCHER_HEALTH_PORT: '3002',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    QUEUE_PREFIX: 'erp',
    SHUTDOWN_GRACE_MS: '20000',
    PUBLIC_BASE_URL: 'https://erp.example.com/v1',
    SANDBOX_BASE_URL: 'https://sandbox.erp.example.com/v1',
    // The cluster's pod and ingress-controller range: X-Forwarded-For is believed from it only.
    TRUST_PROXY: '10.0.0.0/8',
  },
};

/** The shape of the Secret, rendered apart (erp-secrets.example.yaml) and never applied as is. */
export const exampleSecret: Secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'erp-secrets', labels: LABELS },
  type: 'Opaque',
  stringData: {
    SECRETS_KEY: 'replace-me: k1:<base64 of 32 random bytes>',
    METRICS_TOKEN: 'replace-me: 48 hex digits (openssl rand -hex 24)',
    DATABASE_URL: 'postgres://erp:replace-me@postgres:5432/erp',
    REDIS_URL: 'redis://redis:6379/0',
  },
};

const envFrom: Container['envFrom'] = [
  { configMapRef: { name: 'erp-config' } },
  { secretRef: { name: 'erp-secrets' } },
];

const httpProbe = (path: string, port: number, periodSeconds: number, failureThreshold: number): Probe => ({
  httpGet: { path, port },
  periodSeconds,
  timeoutSeconds: 3,
  failureThreshold,
});

const resources: Container['resources'] = {
  requests: { cpu: '250m', memory: '256Mi' },
  limits: { memory: '512Mi' },
};

const withDefaults = (container: Container): Container => ({
  imagePullPolicy: 'IfNotPresent',
  envFrom,
  resources,
  securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true },
  ...container,
});

/** Applies pending migrations (one pod at a time, by an advisory lock) before the pod's process starts. */
const migrateFirst: Container = {
  name: 'migrate',
  image: IMAGE,
  command: ['node', 'dist/scripts/migrate.js'],
};

const podSpec = (container: Container): PodSpec => ({
  // Longer than SHUTDOWN_GRACE_MS: in-flight requests and jobs drain before the kill.
  terminationGracePeriodSeconds: 30,
  securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 },
  initContainers: [withDefaults(migrateFirst)],
  containers: [withDefaults(container)],
});

const deployment = (name: string, component: string, container: Container): Deployment => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels: labelsOf(component) },
  spec: {
    replicas: 2,
    selector: { matchLabels: labelsOf(component) },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
    template: { metadata: { labels: labelsOf(component) }, spec: podSpec(container) },
  },
});

export const api = deployment('erp-api', 'api', {
  name: 'api',
  image: IMAGE,
  command: ['node', 'dist/apps/api/main.js'],
  ports: [
    { name: 'http', containerPort: 3000 },
    { name: 'sandbox', containerPort: 3001 },
  ],
  readinessProbe: httpProbe('/ready', 3000, 5, 2),
  livenessProbe: httpProbe('/health', 3000, 10, 3),
  startupProbe: httpProbe('/health', 3000, 2, 60),
});

export const dispatcher = deployment('erp-dispatcher', 'dispatcher', {
  name: 'dispatcher',
  image: IMAGE,
  command: ['node', 'dist/apps/webhook-dispatcher/main.js'],
  ports: [{ name: 'health', containerPort: 3002 }],
  readinessProbe: httpProbe('/ready', 3002, 5, 2),
  livenessProbe: httpProbe('/health', 3002, 10, 3),
  startupProbe: httpProbe('/health', 3002, 2, 60),
});

const service = (name: string, component: string, ports: ServicePort[]): Service => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, labels: labelsOf(component) },
  spec: { selector: labelsOf(component), ports },
});

export const apiService = service('erp-api', 'api', [
  { name: 'http', port: 3000, targetPort: 'http' },
  { name: 'sandbox', port: 3001, targetPort: 'sandbox' },
]);

/** The dispatchers' /metrics (and probes) for a Prometheus inside the cluster. */
export const dispatcherService = service('erp-dispatcher', 'dispatcher', [
  { name: 'health', port: 3002, targetPort: 'health' },
]);

const budget = (name: string, component: string): PodDisruptionBudget => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name, labels: labelsOf(component) },
  spec: { minAvailable: 1, selector: { matchLabels: labelsOf(component) } },
});

export const apiBudget = budget('erp-api', 'api');
export const dispatcherBudget = budget('erp-dispatcher', 'dispatcher');

/** Every object of erp-api.yaml, in the order `kubectl apply -f` should create them. */
export const manifests = [
  config,
  api,
  apiService,
  apiBudget,
  dispatcher,
  dispatcherService,
  dispatcherBudget,
];
