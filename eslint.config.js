// ESLint flat config: type-aware rules for every workspace, the layering rules
// that keep dependencies pointing one way — between packages and between the
// folders of one package — no import cycles, and `machines/` free of IO, clocks
// and randomness. The layer tables below are the package map of docs/design.md;
// test/src/foundation/layering.test.ts shows each rule firing.
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import tseslint from "typescript-eslint";

/**
 * Packages, lowest layer first, with the Troupe packages each may import.
 * A package may never import one that is not listed (in particular nothing
 * above it); `test/` may import all.
 */
const packages = [
  { name: "@troupe/addressing", dir: "addressing", may: [] },
  { name: "@troupe/protocol", dir: "protocol", may: ["@troupe/addressing"] },
  { name: "@troupe/machines", dir: "machines", may: ["@troupe/protocol"] },
  { name: "@troupe/step", dir: "actors/step", may: ["@troupe/protocol"] },
  { name: "@troupe/stores", dir: "actors/stores", may: ["@troupe/protocol", "@troupe/step"] },
  {
    name: "@troupe/replay",
    dir: "actors/replay",
    may: ["@troupe/protocol", "@troupe/step", "@troupe/stores"],
  },
  {
    name: "@troupe/runtime",
    dir: "actors/runtime",
    may: ["@troupe/protocol", "@troupe/step", "@troupe/stores", "@troupe/replay"],
  },
  { name: "@troupe/client", dir: "services/client", may: ["@troupe/protocol"] },
  {
    name: "@troupe/gateway",
    dir: "services/gateway",
    may: ["@troupe/protocol", "@troupe/machines", "@troupe/client"],
  },
  { name: "@troupe/models", dir: "actors/models", may: ["@troupe/protocol", "@troupe/runtime"] },
  { name: "@troupe/tools", dir: "actors/tools", may: ["@troupe/protocol", "@troupe/runtime"] },
  {
    name: "@troupe/agents",
    dir: "actors/agents",
    may: [
      "@troupe/protocol",
      "@troupe/machines",
      "@troupe/runtime",
      "@troupe/models",
      "@troupe/tools",
    ],
  },
  {
    name: "@troupe/host",
    dir: "services/host",
    may: ["@troupe/protocol", "@troupe/runtime", "@troupe/agents", "@troupe/client"],
  },
  {
    name: "@troupe/admin",
    dir: "services/admin",
    may: ["@troupe/protocol", "@troupe/runtime", "@troupe/agents", "@troupe/client"],
  },
  {
    name: "@troupe/dev",
    dir: "services/dev",
    may: [
      "@troupe/protocol",
      "@troupe/runtime",
      "@troupe/agents",
      "@troupe/client",
      "@troupe/host",
    ],
  },
  {
    name: "@troupe/mcp",
    dir: "services/mcp",
    may: ["@troupe/protocol", "@troupe/agents", "@troupe/client", "@troupe/gateway"],
  },
  {
    name: "@troupe/a2a",
    dir: "services/a2a",
    may: ["@troupe/protocol", "@troupe/agents", "@troupe/client", "@troupe/gateway"],
  },
  {
    name: "@troupe/cli",
    dir: "services/cli",
    may: [
      "@troupe/protocol",
      "@troupe/machines",
      "@troupe/runtime",
      "@troupe/agents",
      "@troupe/client",
      "@troupe/gateway",
      "@troupe/host",
      "@troupe/admin",
      "@troupe/dev",
      "@troupe/mcp",
      "@troupe/a2a",
    ],
  },
  {
    name: "@troupe/testkit",
    dir: "services/testkit",
    may: [
      "@troupe/protocol",
      "@troupe/machines",
      "@troupe/runtime",
      "@troupe/agents",
      "@troupe/client",
      "@troupe/host",
      "@troupe/admin",
      "@troupe/dev",
    ],
  },
];
/** Every package a zone may name, `test/` (private) included. */
const allPackages = [...packages, { name: "@troupe/test", dir: "test", may: [] }];

/**
 * Folders of each package's `src/`, lowest layer first. A folder may import
 * folders of lower layers only; folders that share a layer (an inner array)
 * may not import each other. Files at the top of `src/` (the entries) and
 * unit tests (`*.test.ts`, which exercise a folder together with the layers
 * above it) are exempt.
 */
const folderLayers = {
  addressing: [["errors", "telemetry", "text"], "address", "subjects", "storage", "testing"],
  protocol: ["v1", ["codec", "host-actions"], "history", "testing"],
  machines: ["host-actions", "session", "tool", "run", "schedule", "testing"],
  "actors/step": ["errors", "clock", "registry", "step"],
  "actors/stores": ["stores"],
  "actors/replay": ["replay"],
  "actors/runtime": [["streams", "observability"], "host"],
  "actors/models": [["models", "budget", "cassette"]],
  "actors/tools": ["telemetry", "media", "tools", "mcp"],
  "actors/agents": [["transcript", "schedules"], "agents"],
  "services/gateway": ["http", "ui-stream", "fleet", ["chat", "rest", "console"]],
  "services/host": ["telemetry", "connection", "settings", "demo", "host", "process"],
  "services/dev": ["local-servers", "dev"],
  "services/admin": [["admin", "tenants"]],
  "services/cli": [["gateway"], "cli"],
  "services/testkit": ["servers", "clock", "script", "events", "deployment", "evals"],
  test: ["harness", "support", "fixtures", "bench"],
};

const layerOrder = (layers) => layers.map((layer) => [layer].flat().join("|")).join(" ← ");

/**
 * `import-x/no-restricted-paths` zones of one package: the packages it may
 * not import, whole. The rule resolves each import (static, `export … from`
 * and dynamic `import()`, by package name or by relative path) to a file, so
 * neither a relative path into another package nor an `import()` gets round it.
 */
const packageZones = ({ name, dir, may }) =>
  allPackages
    .filter((other) => other.name !== name && !may.includes(other.name))
    .map((other) => ({
      target: `./${dir}`,
      from: `./${other.dir}`,
      message: `${name} may not import ${other.name}: see the package map in docs/design.md (allowed: ${may.join(", ") || "none"}).`,
    }));

/** Zones of one package's folders: each may import lower layers only, not its peers. */
const folderZones = (dir, layers) =>
  layers.flatMap((layer, index) => {
    const own = [layer].flat();
    const above = layers.slice(index + 1).flat();
    return own.flatMap((folder) =>
      [...above, ...own.filter((other) => other !== folder)].map((other) => ({
        target: `./${dir}/src/${folder}`,
        from: `./${dir}/src/${other}`,
        message: `${dir}/src/${folder}/ may not import ${other}/: folders of a package import lower layers only (${layerOrder(layers)}).`,
      })),
    );
  });

/** A package imports its own modules by relative path, never by its own name. */
const selfImport = ({ name }) => ({
  group: [name, `${name}/*`],
  message: `${name} may not import itself by name (that skips the folder order): import the module by its relative path.`,
});

const ioModules = [
  { group: ["node:*"], message: "machines/ is pure: no Node built-ins (IO, timers, crypto)." },
  { group: ["@nats-io/*", "nats"], message: "machines/ is pure: no NATS." },
  { group: ["ioredis", "redis"], message: "machines/ is pure: no Redis." },
];

const impureSyntax = [
  {
    selector: "MemberExpression[object.name='Date'][property.name='now']",
    message: "machines/ is pure: time arrives in events, never from Date.now().",
  },
  {
    selector: "NewExpression[callee.name='Date'][arguments.length=0]",
    message: "machines/ is pure: time arrives in events, never from new Date().",
  },
  {
    selector: "MemberExpression[object.name='Math'][property.name='random']",
    message: "machines/ is pure: ids arrive in events, never from Math.random().",
  },
  {
    selector: "CallExpression[callee.name=/^(setTimeout|setInterval|setImmediate)$/]",
    message: "machines/ is pure: use xstate delays; the host makes them durable timers.",
  },
];

/**
 * The layering rules per file set. ESLint does not merge one rule's options
 * across config objects, so each object carries every zone for its files:
 * sources get the package and folder zones, unit tests the package zones only.
 */
function layeringConfigs() {
  const basePath = import.meta.dirname;
  const configs = [];
  for (const entry of packages) {
    const layers = folderLayers[entry.dir] ?? [];
    const machines = entry.dir === "machines";
    configs.push({
      files: [`${entry.dir}/src/**/*.ts`],
      ignores: [`${entry.dir}/src/**/*.test.ts`],
      rules: {
        "import-x/no-restricted-paths": [
          "error",
          { basePath, zones: [...packageZones(entry), ...folderZones(entry.dir, layers)] },
        ],
        "no-restricted-imports": [
          "error",
          { patterns: [selfImport(entry), ...(machines ? ioModules : [])] },
        ],
      },
    });
    configs.push({
      files: [`${entry.dir}/src/**/*.test.ts`],
      rules: {
        "import-x/no-restricted-paths": ["error", { basePath, zones: packageZones(entry) }],
        "no-restricted-imports": ["error", { patterns: [selfImport(entry)] }],
      },
    });
  }
  configs.push({
    files: ["test/src/**/*.ts"],
    ignores: ["test/src/**/*.test.ts"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        { basePath, zones: folderZones("test", folderLayers.test) },
      ],
    },
  });
  return configs;
}

export default tseslint.config(
  {
    ignores: [
      "**/dist/**",
      "**/node_modules/**",
      "**/.turbo/**",
      "infra/**",
      "*.config.*",
      // The web console's build (issue #16), committed and served by the gateway.
      "**/console-dist/**",
      // Child-process fixtures (MCP servers) run as plain JavaScript.
      "**/fixtures/**/*.mjs",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      // One TypeScript program for the whole repository (and the console's
      // own), as `npm run typecheck` builds it: a program per package would
      // type-check the sources of every package it imports again (the
      // `@troupe/source` condition), which took twice the CPU (decision 0046).
      parserOptions: {
        project: ["./tsconfig.json", "./services/console/tsconfig.json"],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
    },
  },
  {
    // No import cycles inside a package (across packages the layer order above
    // already makes a cycle impossible). import-x skips type-only imports;
    // test/src/foundation/import-graph.test.ts checks those too.
    files: ["**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/resolver-next": [
        createTypeScriptImportResolver({ conditionNames: ["@troupe/source", "import", "default"] }),
      ],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      // One import statement per module (a type-only one may stand beside it).
      "import-x/no-duplicates": "error",
      // Another package is imported by its name and entry, never by a path into its folder.
      "import-x/no-relative-packages": "error",
    },
  },
  {
    // The test kit's examples are written as a user writes them: tools are
    // `async` functions whether or not the example's body awaits.
    files: ["services/testkit/examples/**/*.ts"],
    rules: { "@typescript-eslint/require-await": "off" },
  },
  {
    // Plain-Node apps that test/tsconfig.json type-checks (checkJs): TypeScript
    // reports undefined names there, as typescript-eslint has it for .ts files.
    files: ["test/src/packaging/apps/*.mjs"],
    rules: { "no-undef": "off" },
  },
  ...layeringConfigs(),
  {
    files: ["machines/src/**/*.ts"],
    ignores: ["machines/src/**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...impureSyntax] },
  },
);
