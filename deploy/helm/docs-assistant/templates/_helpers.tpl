{{- define "docs-assistant.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "docs-assistant.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The groups the host reads, as its values file. */}}
{{- define "docs-assistant.hostValues" -}}
{{- pick .Values "deployment" "staticExport" "assistant" | toYaml -}}
{{- end -}}
