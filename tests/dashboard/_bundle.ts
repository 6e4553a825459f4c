// `deno bundle --platform browser` of one entry module, as the dashboard's asset builders
// (client_asset.ts, app_asset.ts) and their freshness tests run it.
const ROOT = new URL("../../", import.meta.url).pathname;

/** The repository root, with a trailing slash. */
export const REPO_ROOT: string = ROOT;

/** The module at entry (relative to the repository root) bundled as one ES module. */
export async function bundleEntry(entry: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform",
        "browser",
        `${ROOT}${entry}`,
        "-o",
        `${dir}/bundle.js`,
      ],
      cwd: ROOT,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(new TextDecoder().decode(output.stderr));
    }
    return await Deno.readTextFile(`${dir}/bundle.js`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
