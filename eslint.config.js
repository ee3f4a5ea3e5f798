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
  { name: "@troupe/protocol", dir: "protocol", may: [] },
  { name: "@troupe/machines", dir: "machines", may: ["@troupe/protocol"] },
  { name: "@troupe/runtime", dir: "actors/runtime", may: ["@troupe/protocol"] },
  { name: "@troupe/client", dir: "services/client", may: ["@troupe/protocol"] },
  {
    name: "@troupe/agents",
    dir: "actors/agents",
    may: ["@troupe/protocol", "@troupe/machines", "@troupe/runtime"],
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
    ],
  },
];
const allPackages = [...packages.map((entry) => entry.name), "@troupe/test"];

/**
 * Folders of each package's `src/`, lowest layer first. A folder may import
 * folders of lower layers only; folders that share a layer (an inner array)
 * may not import each other. Files at the top of `src/` (the entries) and
 * unit tests (`*.test.ts`, which exercise a folder together with the layers
 * above it) are exempt.
 */
const folderLayers = {
  protocol: [
    "errors",
    "address",
    "subjects",
    "v1",
    ["codec", "host-actions", "storage"],
    "testing",
  ],
  machines: ["host-actions", "session", "tool", "run", "testing"],
  "actors/runtime": [
    "errors",
    "clock",
    "registry",
    "step",
    "stores",
    "streams",
    ["replay", "host"],
  ],
  "actors/agents": ["models", "tools", "transcript", "agents"],
  "services/cli": ["local-servers", "demo", "host", "dev", "admin", "cli"],
  test: ["harness", "support", "fixtures", "bench"],
};

const packageRule = ({ name, may }) =>
  allPackages
    .filter((other) => other !== name && !may.includes(other))
    .map((other) => ({
      group: [other, `${other}/*`],
      message: `${name} may not import ${other}: see the package map in docs/design.md (allowed: ${may.join(", ") || "none"}).`,
    }));

const folderRule = (dir, layers, index) => {
  const own = [layers[index]].flat();
  const above = layers.slice(index + 1).flat();
  return own.map((folder) => {
    const peers = own.filter((other) => other !== folder);
    const refused = [...above, ...peers];
    return {
      folder,
      patterns: refused.map((other) => ({
        group: [`../${other}/*`, `../../${other}/*`],
        message: `${dir}/src/${folder}/ may not import ${other}/: folders of a package import lower layers only (${layers.map((layer) => [layer].flat().join("|")).join(" ← ")}).`,
      })),
    };
  });
};

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

/** One `no-restricted-imports` entry per file set: package rule, folder rule and extras merged. */
function restrictedImports() {
  const configs = [];
  for (const entry of packages) {
    const layers = folderLayers[entry.dir] ?? [];
    const extra = entry.dir === "machines" ? ioModules : [];
    const folders = layers.flatMap((_, index) => folderRule(entry.dir, layers, index));
    const foldered = new Set(folders.map(({ folder }) => folder));
    configs.push({
      files: [`${entry.dir}/src/**/*.ts`],
      ignores: [
        ...[...foldered].map((folder) => `${entry.dir}/src/${folder}/**`),
        ...(entry.dir === "machines" ? ["machines/src/**/*.test.ts"] : []),
      ],
      rules: {
        "no-restricted-imports": ["error", { patterns: [...packageRule(entry), ...extra] }],
      },
    });
    for (const { folder, patterns } of folders) {
      configs.push({
        files: [`${entry.dir}/src/${folder}/**/*.ts`],
        ignores: [`${entry.dir}/src/${folder}/**/*.test.ts`],
        rules: {
          "no-restricted-imports": [
            "error",
            { patterns: [...packageRule(entry), ...extra, ...patterns] },
          ],
        },
      });
    }
    configs.push({
      files: [`${entry.dir}/src/**/*.test.ts`],
      rules: { "no-restricted-imports": ["error", { patterns: packageRule(entry) }] },
    });
  }
  const testFolders = folderLayers.test;
  for (const { folder, patterns } of testFolders.flatMap((_, index) =>
    folderRule("test", testFolders, index),
  )) {
    configs.push({
      files: [`test/src/${folder}/**/*.ts`],
      ignores: [`test/src/${folder}/**/*.test.ts`],
      rules: { "no-restricted-imports": ["error", { patterns }] },
    });
  }
  return configs;
}

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "infra/**", "*.config.*"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
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
    },
  },
  {
    // Plain-Node apps that test/tsconfig.json type-checks (checkJs): TypeScript
    // reports undefined names there, as typescript-eslint has it for .ts files.
    files: ["test/src/packaging/apps/*.mjs"],
    rules: { "no-undef": "off" },
  },
  ...restrictedImports(),
  {
    files: ["machines/src/**/*.ts"],
    ignores: ["machines/src/**/*.test.ts"],
    rules: { "no-restricted-syntax": ["error", ...impureSyntax] },
  },
);
