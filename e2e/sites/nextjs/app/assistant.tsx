"use client";

import { useRef } from "react";
import { DocsAssistant, usePageContext, type AssistantHandle } from "docs-assistant";
import "docs-assistant/styles.css";

// The server's address is the same name the other fixtures use; the test browser maps it.
export function Assistant() {
  const ref = useRef<AssistantHandle>(null);
  usePageContext(ref);
  return <DocsAssistant ref={ref} domain="nextjs" apiKey="svc_dsc_sites" baseUrl="http://docs-assistant.test" />;
}
