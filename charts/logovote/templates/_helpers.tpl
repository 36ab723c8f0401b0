{{/* Names: <release>-logovote, or the release name alone when it already contains "logovote". */}}
{{- define "logovote.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels every object carries; "component" names the service, front end or gateway. */}}
{{- define "logovote.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: logovote
{{ include "logovote.selectorLabels" . }}
{{- end -}}

{{- define "logovote.selectorLabels" -}}
app.kubernetes.io/name: logovote
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "logovote.secretName" -}}
{{- .Values.existingSecret | default (include "logovote.fullname" .) -}}
{{- end -}}

{{/* Secret keys a Deployment may do without (the pod still starts when the Secret lacks them). */}}
{{- define "logovote.optionalSecretKeys" -}}
{{- list "MODERATION_API_KEY" | toJson -}}
{{- end -}}

{{/* The settings ConfigMap's data, also hashed into each service's pod annotations. */}}
{{- define "logovote.settingsData" -}}
LOG_LEVEL: {{ .Values.settings.logLevel | quote }}
PUBLIC_ORIGIN: {{ required "publicOrigin is required (the address people open, e.g. https://vote.example.com)" .Values.publicOrigin | quote }}
S3_ENDPOINT: {{ required "s3.endpoint is required (the S3-compatible store, e.g. https://s3.eu-west-1.amazonaws.com)" .Values.s3.endpoint | quote }}
S3_BUCKET: {{ .Values.s3.bucket | quote }}
S3_REGION: {{ .Values.s3.region | quote }}
MAIL_FROM: {{ .Values.smtp.from | default "LogoVote <no-reply@logovote.local>" | quote }}
MODERATION_PROVIDER: {{ .Values.settings.moderationProvider | quote }}
{{- end -}}

{{/* The Secret's data in clear (stringData); empty when an existing Secret is used. */}}
{{- define "logovote.secretData" -}}
{{- if not .Values.existingSecret -}}
MONGODB_URI: {{ required "mongodb.uri is required (or existingSecret)" .Values.mongodb.uri | quote }}
S3_ACCESS_KEY: {{ required "s3.accessKey is required (or existingSecret)" .Values.s3.accessKey | quote }}
S3_SECRET_KEY: {{ required "s3.secretKey is required (or existingSecret)" .Values.s3.secretKey | quote }}
SMTP_URL: {{ required "smtp.url is required (or existingSecret)" .Values.smtp.url | quote }}
ADMIN_USER: {{ required "admin.user is required (or existingSecret)" .Values.admin.user | quote }}
ADMIN_PASSWORD: {{ required "admin.password is required (or existingSecret)" .Values.admin.password | quote }}
CSRF_SECRET: {{ required "secrets.csrfSecret is required (or existingSecret)" .Values.secrets.csrfSecret | quote }}
IP_HASH_SALT: {{ required "secrets.ipHashSalt is required (or existingSecret)" .Values.secrets.ipHashSalt | quote }}
{{- with .Values.secrets.moderationApiKey }}
MODERATION_API_KEY: {{ . | quote }}
{{- end }}
{{- end -}}
{{- end -}}

{{- define "logovote.image" -}}
{{- printf "%s%s:%s" .root.Values.image.registry .image.repository (toString .image.tag) -}}
{{- end -}}

{{/* Environment entries taking each named key from the settings ConfigMap or the Secret. */}}
{{- define "logovote.envFrom" -}}
{{- $optional := include "logovote.optionalSecretKeys" .root | fromJsonArray -}}
{{- range .settings }}
- name: {{ . }}
  valueFrom:
    configMapKeyRef:
      name: {{ include "logovote.fullname" $.root }}-settings
      key: {{ . }}
{{- end }}
{{- range .secrets }}
- name: {{ . }}
  valueFrom:
    secretKeyRef:
      name: {{ include "logovote.secretName" $.root }}
      key: {{ . }}
      {{- if has . $optional }}
      optional: true
      {{- end }}
{{- end }}
{{- end -}}

{{/* Pod and container hardening shared by every component (the images run as their unprivileged user). */}}
{{- define "logovote.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .uid }}
runAsGroup: {{ .uid }}
fsGroup: {{ .uid }}
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{- define "logovote.containerSecurityContext" -}}
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
capabilities:
  drop: [ALL]
{{- end -}}

{{- /*
A terminating pod keeps serving for a few seconds: its removal from the Service's endpoints reaches every node's
proxy only after the pod starts terminating, and a pod gone before then is still sent new connections, which time
out (a 504 at the gateway during a rolling upgrade). The shutdown itself follows, within the grace period.
*/ -}}
{{- define "logovote.drainBeforeStop" -}}
lifecycle:
  preStop:
    exec:
      command: ["sleep", "5"]
{{- end }}

{{- define "logovote.scheduling" -}}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.image.pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/*
The Service, HorizontalPodAutoscaler and PodDisruptionBudget of one component.
Arguments: root, component, values (the component's values: port, replicas, autoscaling), and
servicePort (default: the container's port).
*/}}
{{- define "logovote.companions" -}}
---
apiVersion: v1
kind: Service
metadata:
  name: {{ include "logovote.fullname" .root }}-{{ .component }}
  labels:
    {{- include "logovote.labels" . | nindent 4 }}
spec:
  type: ClusterIP
  selector:
    {{- include "logovote.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ .servicePort | default .values.port }}
      targetPort: http
{{- if .values.autoscaling.enabled }}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: {{ include "logovote.fullname" .root }}-{{ .component }}
  labels:
    {{- include "logovote.labels" . | nindent 4 }}
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: {{ include "logovote.fullname" .root }}-{{ .component }}
  minReplicas: {{ .values.autoscaling.minReplicas }}
  maxReplicas: {{ .values.autoscaling.maxReplicas }}
  metrics:
    - type: Resource
      resource:
        name: cpu
        target:
          type: Utilization
          averageUtilization: {{ .values.autoscaling.targetCPUUtilizationPercentage }}
{{- end }}
{{- if and .root.Values.podDisruptionBudget.enabled (or .values.autoscaling.enabled (gt (int .values.replicas) 1)) }}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "logovote.fullname" .root }}-{{ .component }}
  labels:
    {{- include "logovote.labels" . | nindent 4 }}
spec:
  minAvailable: 1
  selector:
    matchLabels:
      {{- include "logovote.selectorLabels" . | nindent 6 }}
{{- end }}
{{- end -}}
