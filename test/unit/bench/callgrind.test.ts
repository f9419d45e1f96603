import { inclusiveCount } from '../../bench/callgrind';

/** Lines as valgrind 3.19's `callgrind_annotate --inclusive=yes` prints them. */
const LISTING = [
  '--------------------------------------------------------------------------------',
  'Ir                      file:function',
  '--------------------------------------------------------------------------------',
  "4,057,642,663 (1272.9%)  ???:Builtins_InterpreterEntryTrampoline'2 [/usr/bin/node]",
  '   87,573,477 (27.47%)  ???:node::loader::ModuleWrap::Evaluate(v8::FunctionCallbackInfo<v8::Value> const&) [/usr/bin/node]',
  '   78,213,494 (24.54%)  ???:node::loader::ModuleWrap::New(v8::FunctionCallbackInfo<v8::Value> const&) [/usr/bin/node]',
  '   76,453,498 (23.98%)  ???:node::loader::ModuleWrap::CompileSourceTextModule(node::Realm*, v8::Local<v8::String>) [/usr/bin/node]',
  '  115,898,420 (17.70%)  ???:node::builtins::BuiltinLoader::LookupAndCompileInternal(v8::Local<v8::Context>, char const*, node::Realm*) [/usr/bin/node]',
  '  114,728,308 (17.52%)  ???:node::builtins::BuiltinLoader::LookupAndCompile(v8::Local<v8::Context>, char const*, node::Realm*) [/usr/bin/node]',
].join('\n');

describe('inclusiveCount', () => {
  it('reads the count of the line naming the symbol, in millions', () => {
    expect(inclusiveCount(LISTING, 'node::loader::ModuleWrap::New(')).toBeCloseTo(78.213494, 6);
    expect(inclusiveCount(LISTING, 'node::loader::ModuleWrap::Evaluate(')).toBeCloseTo(87.573477, 6);
  });

  it('matches the whole name, not a longer one it begins', () => {
    expect(inclusiveCount(LISTING, 'node::builtins::BuiltinLoader::LookupAndCompile(')).toBeCloseTo(114.728308, 6);
  });

  it('is undefined when no line names it (a node binary without symbols)', () => {
    expect(inclusiveCount(LISTING, 'node::loader::ModuleWrap::Instantiate(')).toBeUndefined();
  });
});
