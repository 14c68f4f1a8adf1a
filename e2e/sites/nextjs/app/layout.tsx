import type { Metadata } from "next";
import Link from "next/link";
import { Assistant } from "./assistant";
import "./globals.css";

// create-next-app's layout, with next/font/google removed (it downloads fonts at build time, and this
// machine reaches only npm) and the docs assistant added.
export const metadata: Metadata = {
  title: "Acme Widgets",
  description: "Next.js fixture for docs-assistant",
};

export default function RootLayout({ children }: LayoutProps<"/">) {
  return (
    <html lang="en" className="h-full antialiased">
      <body className="min-h-full flex flex-col">
        <nav className="flex gap-4 p-4 border-b">
          <Link href="/">Getting started</Link>
          <Link href="/guides/widget-setup">Widget setup</Link>
        </nav>
        <main className="docs-prose max-w-3xl p-8">{children}</main>
        <Assistant />
      </body>
    </html>
  );
}
