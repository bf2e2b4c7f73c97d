{{/* Names and labels shared by every template. */}}

{{- define "tessera.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "tessera.operatorName" -}}
{{- printf "%s-operator" (include "tessera.fullname" .) | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "tessera.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: tessera
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/part-of: tessera
{{- end -}}

{{- define "tessera.operatorSelector" -}}
app.kubernetes.io/name: tessera
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end -}}

{{- define "tessera.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "tessera.operatorImage" -}}
{{- printf "%s:%s" .Values.operator.image.repository (default .Chart.AppVersion .Values.operator.image.tag) -}}
{{- end -}}

{{/* The signing secret's name: the one given, or the chart's own. */}}
{{- define "tessera.authSecretName" -}}
{{- default (printf "%s-auth" (include "tessera.fullname" .)) .Values.auth.existingSecret -}}
{{- end -}}

{{/* A connection's Secret name ("" when the connection is not given). Argument: (list $ "nats"). */}}
{{- define "tessera.connectionSecret" -}}
{{- $root := index . 0 -}}
{{- $name := index . 1 -}}
{{- $c := index $root.Values.connections $name -}}
{{- if $c.existingSecret -}}
{{- $c.existingSecret -}}
{{- else if $c.url -}}
{{- printf "%s-%s" (include "tessera.fullname" $root) $name -}}
{{- end -}}
{{- end -}}

{{/* Where the operator's namespaced rights apply: the watched namespace, or every one. */}}
{{- define "tessera.clusterWide" -}}
{{- if not .Values.operator.watchNamespace -}}true{{- end -}}
{{- end -}}

{{/*
Where the services' resources go (the Leaderboard, its Ingress, the Secrets its pods read): the
namespace the operator watches when it watches one, else the release's.
*/}}
{{- define "tessera.appNamespace" -}}
{{- default .Release.Namespace .Values.operator.watchNamespace -}}
{{- end -}}
