// ESLint flat config: type-aware rules for every workspace, plus the layering
// rules that keep `protocol ← machines ← actors ← services` one-way and keep
// `machines/` free of IO, clocks and randomness (see ../shared/DESIGN.md).
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const layer = (packages) =>
  packages.map((name) => ({
    group: [name, `${name}/*`],
    message: `This layer may not import ${name}: dependencies point protocol ← machines ← actors ← services.`,
  }));

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
    files: ["protocol/src/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: layer([
            "@troupe/machines",
            "@troupe/actors",
            "@troupe/services",
            "@troupe/test",
          ]),
        },
      ],
    },
  },
  {
    files: ["machines/src/**/*.ts"],
    ignores: ["machines/src/**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...layer(["@troupe/actors", "@troupe/services", "@troupe/test"]),
            ...ioModules,
          ],
        },
      ],
      "no-restricted-syntax": ["error", ...impureSyntax],
    },
  },
  {
    files: ["actors/src/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: layer(["@troupe/services", "@troupe/test"]) }],
    },
  },
  {
    files: ["services/src/**/*.ts"],
    rules: {
      "no-restricted-imports": ["error", { patterns: layer(["@troupe/test"]) }],
    },
  },
);
