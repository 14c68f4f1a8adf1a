// Checked by the type check (`npm run typecheck`, part of npm test): the plain types the widget
// publishes instead of the SDK's and zod's must stay what the hook and the schemas really hold.
import type { UIMessage } from '@ai-sdk/ui-utils';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ChatMessage } from '../src/chat/message.js';
import type {
  bundleSchema,
  contextItemSchema,
  filterSchema,
  jobSchema,
  jobStatusSchema,
  startJobRequestSchema,
} from '../src/protocol/schemas.js';
import type {
  Bundle,
  ContextItem,
  Filter,
  Job,
  JobStatus,
  StartJobRequest,
} from '../src/protocol/types.js';

describe('public types without zod or the SDK', () => {
  it('hand the SDK hook its own messages back and forth unchanged', () => {
    expectTypeOf<UIMessage>().toExtend<ChatMessage>();
    expectTypeOf<ChatMessage>().toExtend<UIMessage>();
  });

  it('describe the same shapes the schemas validate', () => {
    expectTypeOf<ContextItem>().toEqualTypeOf<z.infer<typeof contextItemSchema>>();
    expectTypeOf<Filter>().toEqualTypeOf<z.infer<typeof filterSchema>>();
    expectTypeOf<JobStatus>().toEqualTypeOf<z.infer<typeof jobStatusSchema>>();
    expectTypeOf<StartJobRequest>().toEqualTypeOf<z.infer<typeof startJobRequestSchema>>();
    expectTypeOf<Job>().toEqualTypeOf<z.infer<typeof jobSchema>>();
    expectTypeOf<Bundle>().toEqualTypeOf<z.infer<typeof bundleSchema>>();
  });
});
