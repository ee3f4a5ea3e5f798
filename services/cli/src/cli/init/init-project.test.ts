import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { initProject, packageName } from "./init-project.js";
import { ProjectExistsError } from "./project-exists-error.js";
import {
  cliVersion,
  localTroupePackages,
  PROJECT_TEMPLATE_DIR,
  projectDependencies,
} from "./project-template.js";

let root: string;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "troupe-init-"));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const readJson = async (path: string) => JSON.parse(await readFile(path, "utf8")) as unknown;

describe("initProject", () => {
  it("creates a missing folder with the template files and a module package.json listing every dependency", async () => {
    const dir = join(root, "My Agents");

    const result = await initProject({ dir, troupeVersion: "1.2.3" });

    expect(result.written).toEqual([
      "agent.ts",
      "agent.test.ts",
      "agent.eval.test.ts",
      "tsconfig.json",
      "README.md",
      ".gitignore",
      "package.json",
    ]);
    expect((await readdir(dir)).sort()).toEqual([...result.written].sort());
    expect(await readFile(join(dir, "agent.ts"), "utf8")).toBe(
      await readFile(join(PROJECT_TEMPLATE_DIR, "agent.ts"), "utf8"),
    );
    expect(await readJson(join(dir, "package.json"))).toEqual({
      name: "my-agents",
      version: "0.1.0",
      private: true,
      type: "module",
      scripts: { dev: "troupe dev --agent ./agent.ts", test: "vitest run", typecheck: "tsc" },
      dependencies: {
        "@troupe/agents": "^1.2.3",
        "@troupe/cli": "^1.2.3",
        "@troupe/client": "^1.2.3",
        zod: "^4.6.7",
      },
      devDependencies: {
        "@troupe/testkit": "^1.2.3",
        "@types/node": "^20.19.43",
        typescript: "^5.9.3",
        vitest: "^4.1.12",
      },
    });
    expect(result.hadPackageJson).toBe(false);
    expect(result.added).toHaveLength(8);
  });

  it("updates an npm project: keeps its name, scripts and listed packages, replaces npm init's failing test script", async () => {
    await writeFile(
      join(root, "package.json"),
      JSON.stringify({
        name: "shop",
        version: "1.0.0",
        type: "commonjs",
        scripts: { test: 'echo "Error: no test specified" && exit 1', start: "node ." },
        dependencies: { "@troupe/cli": "file:../troupe-cli-0.1.0.tgz" },
        devDependencies: { vitest: "^4.0.0" },
      }),
    );
    await mkdir(join(root, "node_modules"));
    await writeFile(join(root, ".gitignore"), "dist/\n");

    const result = await initProject({ dir: root, troupeVersion: "0.1.0" });

    const manifest = (await readJson(join(root, "package.json"))) as Record<string, unknown>;
    expect(manifest).toMatchObject({
      name: "shop",
      type: "module",
      scripts: {
        dev: "troupe dev --agent ./agent.ts",
        test: "vitest run",
        typecheck: "tsc",
        start: "node .",
      },
      dependencies: {
        "@troupe/agents": "^0.1.0",
        "@troupe/cli": "file:../troupe-cli-0.1.0.tgz",
        "@troupe/client": "^0.1.0",
        zod: "^4.6.7",
      },
      devDependencies: {
        "@troupe/testkit": "^0.1.0",
        "@types/node": "^20.19.43",
        typescript: "^5.9.3",
        vitest: "^4.0.0",
      },
    });
    expect(result.added).toEqual([
      "@troupe/agents@^0.1.0",
      "@troupe/client@^0.1.0",
      "zod@^4.6.7",
      "@troupe/testkit@^0.1.0",
      "@types/node@^20.19.43",
      "typescript@^5.9.3",
    ]);
    expect(result.hadPackageJson).toBe(true);
    // The folder's own .gitignore is kept.
    expect(result.written).not.toContain(".gitignore");
    expect(await readFile(join(root, ".gitignore"), "utf8")).toBe("dist/\n");
  });

  it("refuses a folder with other files, naming them, and writes nothing", async () => {
    await writeFile(join(root, "package.json"), "{}\n");
    await writeFile(join(root, "index.js"), "");
    await mkdir(join(root, "src"));

    const error = await initProject({ dir: root, troupeVersion: "0.1.0" }).catch(
      (caught: unknown) => caught,
    );

    expect(error).toBeInstanceOf(ProjectExistsError);
    expect(error).toMatchObject({ code: "project_exists", entries: ["index.js", "src"] });
    expect((error as Error).message).toContain("is not empty (index.js, src)");
    expect((await readdir(root)).sort()).toEqual(["index.js", "package.json", "src"]);
    expect(await readFile(join(root, "package.json"), "utf8")).toBe("{}\n");
  });

  it("refuses a package.json that is not a JSON object", async () => {
    await writeFile(join(root, "package.json"), "[1]");
    await expect(initProject({ dir: root, troupeVersion: "0.1.0" })).rejects.toThrow(
      "package.json is not a JSON object",
    );
  });
});

describe("packageName", () => {
  it.each([
    ["My Agents!", "my-agents"],
    ["shop", "shop"],
    ["_x", "x"],
    ["!!!", "troupe-project"],
  ])("%s → %s", (folder, name) => {
    expect(packageName(folder)).toBe(name);
  });
});

describe("projectDependencies", () => {
  it("uses the ranges of this repository: zod as the CLI, the dev tools as the root package.json", async () => {
    const cli = (await readJson(new URL("../../../package.json", import.meta.url).pathname)) as {
      version: string;
      dependencies: Record<string, string>;
    };
    const repository = (await readJson(
      new URL("../../../../../package.json", import.meta.url).pathname,
    )) as { devDependencies: Record<string, string> };

    const wanted = projectDependencies(cliVersion());

    expect(cliVersion()).toBe(cli.version);
    expect(wanted.dependencies["zod"]).toBe(cli.dependencies["zod"]);
    expect(wanted.devDependencies["@troupe/testkit"]).toBe(`^${cli.version}`);
    for (const [name, range] of Object.entries(wanted.devDependencies)) {
      if (name.startsWith("@troupe/")) continue;
      expect(range, name).toBe(repository.devDependencies[name]);
    }
  });
});

describe("localTroupePackages and the tarball specs (the packages are not on the registry yet)", () => {
  it("installed: the file: specs of @troupe/* in the installing project's package.json, made absolute", async () => {
    const project = join(root, "app");
    await mkdir(join(project, "node_modules", "@troupe", "cli"), { recursive: true });
    await writeFile(
      join(project, "package.json"),
      JSON.stringify({
        dependencies: {
          "@troupe/agents": "file:../packed/troupe-agents-0.1.0.tgz",
          "@troupe/protocol": "file:/abs/troupe-protocol-0.1.0.tgz",
          "@troupe/client": "^0.1.0",
          zod: "file:../zod.tgz",
        },
      }),
    );

    const local = localTroupePackages(join(project, "node_modules", "@troupe", "cli") + "/");

    expect(local).toEqual({
      "@troupe/agents": `file:${join(root, "packed", "troupe-agents-0.1.0.tgz")}`,
      "@troupe/protocol": "file:/abs/troupe-protocol-0.1.0.tgz",
    });
    // Each replaces the registry range, and the packages they need are listed too.
    expect(projectDependencies("0.1.0", local).dependencies).toEqual({
      "@troupe/agents": `file:${join(root, "packed", "troupe-agents-0.1.0.tgz")}`,
      "@troupe/cli": "^0.1.0",
      "@troupe/client": "^0.1.0",
      "@troupe/protocol": "file:/abs/troupe-protocol-0.1.0.tgz",
      zod: "^4.6.7",
    });
    // The test kit's tarball goes to devDependencies, where the project's test needs it.
    const withTestkit = projectDependencies("0.1.0", {
      ...local,
      "@troupe/testkit": "file:/abs/troupe-testkit-0.1.0.tgz",
    });
    expect(withTestkit.devDependencies["@troupe/testkit"]).toBe(
      "file:/abs/troupe-testkit-0.1.0.tgz",
    );
    expect(withTestkit.dependencies["@troupe/testkit"]).toBeUndefined();
  });

  it("in a clone: the tarballs of npm run pack in packed/, none when it was not run", async () => {
    const cliRoot = join(root, "repo", "services", "cli");
    await mkdir(cliRoot, { recursive: true });
    expect(localTroupePackages(cliRoot)).toEqual({});

    await mkdir(join(root, "repo", "packed"));
    await writeFile(join(root, "repo", "packed", "troupe-cli-0.1.0.tgz"), "");
    await writeFile(join(root, "repo", "packed", "notes.txt"), "");

    expect(localTroupePackages(cliRoot)).toEqual({
      "@troupe/cli": `file:${join(root, "repo", "packed", "troupe-cli-0.1.0.tgz")}`,
    });
  });
});
