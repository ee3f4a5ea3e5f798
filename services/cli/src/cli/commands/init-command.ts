import { Command } from "commander";
import { relative, resolve } from "node:path";
import pc from "picocolors";
import { initProject } from "../init/init-project.js";
import { installDependencies } from "../init/install-dependencies.js";
import { cliVersion, localTroupePackages, projectDependencies } from "../init/project-template.js";

interface InitCommandOptions {
  /** `--no-install` sets it to `false`. */
  readonly install: boolean;
}

/**
 * `troupe init [dir]`: creates a project with an agent, its test and a README
 * (see `initProject`), runs `npm install` unless `--no-install`, and prints
 * the next steps.
 */
export function initCommand(): Command {
  return new Command("init")
    .description(
      "create a project: an agent with one tool, its test against real servers, a README",
    )
    .argument("[dir]", "project folder, created if missing", ".")
    .option("--no-install", "write the files only; run npm install yourself")
    .addHelpText(
      "after",
      "\nThe folder must be empty or hold only package.json, package-lock.json, node_modules, .git\n" +
        "(e.g. after `npm init -y && npm i @troupe/cli`). An existing package.json keeps its scripts\n" +
        'and dependencies; init sets "type": "module", adds the scripts dev, test and typecheck and\n' +
        "the packages the project needs (@troupe/* at this CLI's version), then runs npm install.\n" +
        "\nExamples:\n  npx @troupe/cli init my-agents\n  troupe init --no-install",
    )
    .action(async (dirArgument: string, options: InitCommandOptions) => {
      const say = (line: string) => process.stdout.write(`${line}\n`);
      const dir = resolve(dirArgument);
      const version = cliVersion();
      const result = await initProject({
        dir,
        troupeVersion: version,
        dependencies: projectDependencies(version, localTroupePackages()),
      });
      const where = relative(process.cwd(), dir) || ".";
      say(`${pc.green("✔")} created a Troupe project in ${where}: ${result.written.join(", ")}`);
      if (result.added.length > 0) {
        say(`${pc.green("✔")} package.json lists ${result.added.join(", ")}`);
      }
      const toInstall = result.added.length > 0 || !result.hadPackageJson;
      if (options.install && toInstall) {
        say(`… npm install in ${where}`);
        await installDependencies(dir);
        say(`${pc.green("✔")} installed`);
      }
      const cd = where === "." ? [] : [`cd ${where}`];
      const install = !options.install && toInstall ? ["npm install"] : [];
      say(
        [
          "",
          pc.bold("Next steps:"),
          ...[...cd, ...install].map((line) => `  ${line}`),
          `  npm run dev                      ${pc.dim("# troupe dev serving ./agent.ts")}`,
          `  npx troupe chat s1               ${pc.dim('# in another terminal: "what is 25 C in F?"')}`,
          `  npm test                         ${pc.dim("# the agent against real servers (vitest)")}`,
          `  npm run typecheck                ${pc.dim("# tsc")}`,
          "README.md says how to swap in a real model.",
        ].join("\n"),
      );
    });
}
