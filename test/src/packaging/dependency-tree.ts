/**
 * One node of `npm ls --json` output. A package that is not installed (an
 * optional dependency for another platform) appears without `version`.
 */
export interface DependencyNode {
  readonly version?: string;
  readonly dependencies?: Readonly<Record<string, DependencyNode>>;
}

/**
 * A project's installed production dependencies, read from
 * `npm ls --omit=dev --all --json`.
 */
export class DependencyTree {
  /** @param root - the parsed `npm ls --json` output of the project. */
  constructor(private readonly root: DependencyNode) {}

  /** The project's own dependencies, sorted. */
  topLevelNames(): string[] {
    return Object.keys(this.root.dependencies ?? {}).sort();
  }

  /** Every installed package anywhere in the tree, sorted, each once. */
  installedNames(): string[] {
    const names = new Set<string>();
    const visit = (node: DependencyNode): void => {
      for (const [name, child] of Object.entries(node.dependencies ?? {})) {
        if (child.version !== undefined) names.add(name);
        visit(child);
      }
    };
    visit(this.root);
    return [...names].sort();
  }

  /**
   * The direct dependencies of a top-level package, sorted.
   *
   * @param name - a package the project depends on itself.
   * @throws Error when the project does not depend on `name`.
   */
  dependenciesOf(name: string): string[] {
    const node = this.root.dependencies?.[name];
    if (node === undefined) throw new Error(`${name} is not a dependency of the project`);
    return Object.keys(node.dependencies ?? {}).sort();
  }
}
