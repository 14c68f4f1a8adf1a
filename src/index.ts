'use client';
export {
  DocsAssistant,
  type AssistantHandle,
  type DocsAssistantProps,
  type Feedback,
  type Mode,
  type Position,
  type Theme,
} from './ui/docs-assistant.js';
export type {
  DocsAssistantTranslations,
  Labels,
  LabelsInput,
  PageContextTranslations,
} from './ui/translations.js';
export {
  useDocsAssistant,
  type AssistantEvent,
  type AskOptions,
  type AssistantStatus,
  type UseDocsAssistantOptions,
} from './chat/use-docs-assistant.js';
export type { ChatMessage } from './chat/message.js';
export { AssistantError, type AssistantErrorKind } from './client/errors.js';
export type { ContextItem, Filter } from './protocol/types.js';
export { usePageContext, type UsePageContextOptions } from './ui/use-page-context.js';
