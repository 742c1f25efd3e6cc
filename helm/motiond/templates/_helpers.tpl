{{/* Chart name, truncated to the 63 characters Kubernetes allows. */}}
{{- define "motiond.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Fully qualified app name: <release>-motiond unless the release already says motiond. */}}
{{- define "motiond.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The headless Service's name (client-side round robin). */}}
{{- define "motiond.headlessName" -}}
{{- printf "%s-headless" (include "motiond.fullname" .) | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "motiond.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "motiond.selectorLabels" -}}
app.kubernetes.io/name: {{ include "motiond.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{- define "motiond.labels" -}}
helm.sh/chart: {{ include "motiond.chart" . }}
{{ include "motiond.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* Robots ConfigMap is rendered when there is at least one URDF to put in it. */}}
{{- define "motiond.hasRobots" -}}
{{- if or (and .Values.robots.bundled (.Files.Glob "robots/*.urdf")) .Values.robots.extra }}true{{ end }}
{{- end }}

{{/* Pods expected at the low point: the autoscaler's floor or the fixed count. */}}
{{- define "motiond.minReplicas" -}}
{{- if .Values.autoscaling.enabled }}
{{- default .Values.replicaCount .Values.autoscaling.minReplicas }}
{{- else }}
{{- .Values.replicaCount }}
{{- end }}
{{- end }}

{{/* Probe handler. Plaintext: grpc.health.v1 on the gRPC port (kubelet's native
gRPC probe). TLS: kubelet's gRPC probe cannot speak TLS, so a TCP connect to the
same port (termination still takes the pod out of the Endpoints at once). */}}
{{- define "motiond.probeHandler" -}}
{{- if .Values.tls.enabled }}
tcpSocket:
  port: {{ .Values.service.port }}
{{- else }}
grpc:
  port: {{ .Values.service.port }}
{{- end }}
{{- end }}
