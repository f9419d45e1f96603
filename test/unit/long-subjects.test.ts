import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { longCommitSubjects } from '../../infra/cli/long-subjects';
import { tempDir } from '../support/temp-dir';

describe('longCommitSubjects', () => {
  let repo: string;
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
  const commit = (message: string) => git('commit', '-q', '--allow-empty', '-m', message);

  beforeAll(() => {
    repo = tempDir('subjects');
    git('init', '-q');
    commit('x'.repeat(100)); // before the range: never reported
    git('tag', 'base');
    commit('a'.repeat(72));
    commit(`${'b'.repeat(73)}\n\nThe body may be as long as it needs: ${'c'.repeat(200)}`);
    commit('é'.repeat(72)); // 72 characters, 144 bytes
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('reports only the subjects in the range that are over 72 characters, bodies aside', () => {
    const long = longCommitSubjects('base..HEAD', { cwd: repo });
    expect(long).toEqual([{ hash: expect.stringMatching(/^[0-9a-f]{40}$/), subject: 'b'.repeat(73) }]);
  });

  it('passes the commits it is told to by their full hash', () => {
    const [long] = longCommitSubjects('base..HEAD', { cwd: repo });
    expect(longCommitSubjects('base..HEAD', { cwd: repo, exempt: [long!.hash] })).toEqual([]);
    expect(longCommitSubjects('base..HEAD', { cwd: repo, exempt: [long!.hash.slice(0, 7)] })).toHaveLength(1);
  });

  it('takes a stricter limit', () => {
    expect(longCommitSubjects('base..HEAD', { cwd: repo, max: 71 }).map(({ subject }) => subject[0])).toEqual(['é', 'b', 'a']);
  });

  it('throws when the range cannot be resolved', () => {
    expect(() => longCommitSubjects('missing..HEAD', { cwd: repo })).toThrow(/missing/);
  });
});
