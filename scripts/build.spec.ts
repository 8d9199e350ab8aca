import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `npm run build` (the command of package.json) on a small project of its own: incremental, and
 * dist follows the sources when files are deleted on either side.
 */
describe('npm run build', () => {
  const projectRoot = path.resolve(__dirname, '..');
  const buildCommand = (
    JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts.build;
  let dir: string;

  const build = () =>
    execFileSync('sh', ['-c', buildCommand], {
      cwd: dir,
      encoding: 'utf8',
      stdio: 'pipe',
      env: { ...process.env, PATH: `${path.join(dir, 'node_modules', '.bin')}:${process.env.PATH}` },
    });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  const compiled = (file: string) => existsSync(path.join(dir, 'dist', file));

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'build-'));
    symlinkSync(path.join(projectRoot, 'node_modules'), path.join(dir, 'node_modules'));
    mkdirSync(path.join(dir, 'scripts'));
    for (const file of ['build.mjs']) {
      const source = path.join(projectRoot, 'scripts', file);
      if (existsSync(source)) copyFileSync(source, path.join(dir, 'scripts', file));
    }
    write(
      'tsconfig.build.json',
      JSON.stringify({
        compilerOptions: {
          module: 'commonjs',
          target: 'ES2022',
          strict: true,
          types: [],
          outDir: 'dist',
          rootDir: '.',
          incremental: true,
          tsBuildInfoFile: 'dist/.tsbuildinfo',
        },
        include: ['src'],
        exclude: ['dist', 'node_modules', '**/*.spec.ts'],
      }),
    );
    write('src/a.ts', 'export const a = 1;\n');
    write('src/lib/b.ts', "import { a } from '../a';\nexport const b = a + 1;\n");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('removes the compiled files of deleted sources and restores deleted compiled files', () => {
    build();
    expect(compiled('src/a.js') && compiled('src/lib/b.js')).toBe(true);

    rmSync(path.join(dir, 'src/lib/b.ts'));
    build();
    expect(compiled('src/lib/b.js')).toBe(false);
    expect(compiled('src/a.js')).toBe(true);

    rmSync(path.join(dir, 'dist/src/a.js'));
    build();
    expect(compiled('src/a.js')).toBe(true);
  });

  it('compiles a changed source again and reports its type errors', () => {
    build();
    write('src/a.ts', 'export const a = 2;\n');
    build();
    expect(readFileSync(path.join(dir, 'dist/src/a.js'), 'utf8')).toContain('exports.a = 2');

    write('src/a.ts', "export const a: number = 'x';\n");
    let output = '';
    try {
      build();
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    expect(output).toMatch(/src\/a\.ts.*error TS2322/);
  });
});
