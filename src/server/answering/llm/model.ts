import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { LanguageModelV1 } from 'ai';

export const LLM_PROVIDERS = ['openai-compatible', 'openai', 'anthropic'] as const;
export type LlmProvider = (typeof LLM_PROVIDERS)[number];

/** How the reference server reaches a language model (`serve --llm-…`). */
export interface LlmConfig {
  /** Which AI SDK provider speaks to the model. @default 'openai-compatible' */
  provider?: LlmProvider;
  /** API root of the model server (`http://127.0.0.1:11434/v1` for Ollama). Required for openai-compatible. */
  baseUrl?: string;
  /** Model name as the server knows it (`llama3.2`, `gpt-4o-mini`, `claude-3-5-haiku-latest`). */
  model: string;
  /** Secret key; read only from DOCS_ASSISTANT_LLM_API_KEY by the CLI, never shown anywhere. */
  apiKey?: string;
  /** Longest wait for the model's next part (the first included) before the answer fails. @default 60000 */
  timeoutMs?: number;
  /** Model steps, so the model can call the search tool and then answer. @default 4 */
  maxSteps?: number;
  /** Budget for the thread's earlier turns in the prompt, in tokens (about 4 characters each). @default 2000 */
  historyTokens?: number;
  /** The fetch the provider uses (tests, proxies). @default globalThis.fetch */
  fetch?: typeof fetch;
}

export class LlmConfigError extends Error {}

/** Checks a configuration up front, so a missing key fails at start rather than on the first question. */
export function checkLlmConfig(config: LlmConfig): void {
  const provider = config.provider ?? 'openai-compatible';
  if (!LLM_PROVIDERS.includes(provider))
    throw new LlmConfigError(
      `--llm-provider must be one of ${LLM_PROVIDERS.join(', ')}, got "${String(provider)}".`,
    );
  if (!config.model) throw new LlmConfigError('--llm-model is required to answer with a model.');
  if (provider === 'openai-compatible' && !config.baseUrl)
    throw new LlmConfigError('--llm-base-url is required for an OpenAI-compatible server.');
  // Hosted providers without our key would fall back to their own environment variables; we never do.
  if (provider !== 'openai-compatible' && !config.apiKey)
    throw new LlmConfigError(`Set DOCS_ASSISTANT_LLM_API_KEY to use --llm-provider ${provider}.`);
}

/** The AI SDK 4 language model (LanguageModelV1) for a configuration. */
export function createModel(config: LlmConfig): LanguageModelV1 {
  checkLlmConfig(config);
  const common = {
    ...(config.baseUrl ? { baseURL: config.baseUrl } : {}),
    ...(config.fetch ? { fetch: config.fetch } : {}),
  };
  switch (config.provider ?? 'openai-compatible') {
    case 'openai-compatible':
      return createOpenAICompatible({
        name: 'llm',
        baseURL: config.baseUrl!,
        ...common,
        ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      }).chatModel(config.model);
    case 'openai':
      return createOpenAI({ ...common, apiKey: config.apiKey!, compatibility: 'strict' }).chat(
        config.model,
      );
    case 'anthropic':
      return createAnthropic({ ...common, apiKey: config.apiKey! })(config.model);
  }
}

/** "llama3.2 at http://127.0.0.1:11434/v1 (openai-compatible)": for logs, never with the key. */
export function describeLlm(config: LlmConfig): string {
  const provider = config.provider ?? 'openai-compatible';
  return `${config.model}${config.baseUrl ? ` at ${config.baseUrl}` : ''} (${provider}${config.apiKey ? ', key from DOCS_ASSISTANT_LLM_API_KEY' : ''})`;
}

/** Starts the model's silence timer (`timeoutMs`); the result stops it. Tests pass one they fire themselves. */
export type SilenceTimer = (fire: () => void, ms: number) => () => void;
