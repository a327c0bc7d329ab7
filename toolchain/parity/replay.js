// Replays the vectors recorded under CPython (toolchain/parity/record.py) on the transpiled modules
// (build/testing.js) and prints every difference as `module.function(args): CPython → X, bundle → Y`.
//   node -r tests/node/harness.js toolchain/parity/replay.js build/parity/vectors.json
// The transpiled host modules require `vscode`: the caller preloads a module that answers that require (`inv parity`
// preloads the node tests' harness, which maps it to their fake).
// Exit code 1 when anything differs. Arguments reach the bundle as the transpiled code gets them
// from JSON (objects become dicts, through js_json.parse_json); keyword arguments the Transcrypt way.
'use strict';
const fs = require('fs');
const path = require('path');

const testing = () => require(path.join(__dirname, '..', '..', 'build', 'testing.js'));

const SHOWN = Number(process.env.HERMES_PARITY_SHOW || 60);  // differences printed in full; the rest are counted
const MAX_TEXT = 300;

// Names Transcrypt renames (compiler.py predef_aliases): a function `keys` is exported as `py_keys`.
const RENAMED = new Set(['arguments', 'case', 'clear', 'default', 'del', 'enumerate', 'false', 'get', 'Infinity',
  'is', 'isNaN', 'iter', 'items', 'keys', 'name', 'NaN', 'new', 'next', 'pop', 'popitem', 'replace', 'selector',
  'sort', 'split', 'switch', 'TypeError', 'update', 'copy', 'deepcopy', 'values', 'fromkeys', 'reversed',
  'setdefault', 'true', 'undefined']);
// `object[key] = value` with key '__proto__' would set the prototype; JSON.parse makes an own property.
const ownProperty = (object, key, value) => Object.defineProperty(object, key,
  { value, enumerable: true, writable: true, configurable: true });
const jsName = (name) => (name === 'type' ? 'py_metatype' : RENAMED.has(name) ? 'py_' + name : name);

function main(vectorsFile) {
  const data = JSON.parse(fs.readFileSync(vectorsFile, 'utf8'));
  const mods = testing();
  const { runtime, js_json: js } = mods;
  const unrenamed = new Map([...RENAMED].map((name) => ['py_' + name, name]).concat([['py_metatype', 'type']]));

  // JSON → the value the transpiled code gets: objects become dicts, tagged objects are rebuilt.
  function toPython(value) {
    const tag = value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 1
      ? Object.keys(value)[0] : '';
    if (tag.startsWith('<') && tag.slice(1, -1) in data.adapted) {
      const className = tag.slice(1, -1);
      const module = mods[data.adapted[className].slice('hermes.'.length).replace(/\./g, '_')];
      const fields = value[tag];
      const instance = module[className](fields.name, fields.description, toPython(fields.input_schema), notCalled);
      for (const [key, item] of Object.entries(fields)) instance[jsName(key)] = toPython(item);
      return instance;
    }
    if (Array.isArray(value)) return value.map(toPython);
    if (value !== null && typeof value === 'object') {
      const result = js.parse_json('{}');  // own data properties, as JSON.parse makes them (even '__proto__')
      for (const [key, item] of Object.entries(value)) {
        ownProperty(result, key, toPython(item));
      }
      return result;
    }
    return value;
  }
  function callArgs(args, kwargs) {
    const converted = args.map(toPython);
    if (Object.keys(kwargs).length > 0) converted.push(runtime.__kwargtrans__(toPython(kwargs)));
    return converted;
  }
  function notCalled() {
    throw new Error('parity: a handler of a rebuilt object was called');
  }

  function errorOf(error) {
    if (error !== null && typeof error === 'object' && error.__class__) {
      return { type: error.__class__.__name__, message: runtime.str(error) };
    }
    if (error instanceof Error) return { type: error.constructor.name, message: error.message };
    return { type: typeof error, message: String(error) };
  }

  // The JSON the CPython side recorded for the same value (record.py to_json), or a marker that
  // cannot equal any JSON value for what has no JSON form (undefined inside a list, functions, objects).
  function toJson(value, depth = 0) {
    if (value === undefined || value === null) return null;
    if (typeof value === 'number') return Number.isFinite(value) ? value : { '<number>': String(value) };
    if (typeof value === 'boolean' || typeof value === 'string') return value;
    if (typeof value === 'function') return { '<function>': value.name || '?' };
    if (depth > 40) return { '<too deep>': true };
    if (Array.isArray(value)) {
      const items = [];
      for (let index = 0; index < value.length; index += 1) {  // holes (`del a[0]`) read as undefined
        items.push(index in value ? toJson(value[index], depth + 1) : { '<hole>': index });
      }
      return items;
    }
    if (value.__class__ && value.__class__ !== runtime.dict) {
      const className = value.__class__.__name__;
      if (runtime.isinstance(value, runtime.BaseException)) return { '<exception>': [className, errorOf(value).message] };
      if (!(className in data.adapted)) return { '<object>': className };
      const fields = {};
      for (const key of Object.keys(value)) {
        if (key !== '__class__' && typeof value[key] !== 'function') fields[unrenamed.get(key) || key] = toJson(value[key], depth + 1);
      }
      return { ['<' + className + '>']: fields };
    }
    const result = {};
    for (const key of Object.keys(value)) ownProperty(result, key, toJson(value[key], depth + 1));
    return result;
  }

  function canonical(value) {
    if (Array.isArray(value)) return '[' + value.map(canonical).join(',') + ']';
    if (value !== null && typeof value === 'object') {
      return '{' + Object.keys(value).sort().map((key) => JSON.stringify(key) + ':' + canonical(value[key])).join(',') + '}';
    }
    return JSON.stringify(value);
  }

  const clip = (text) => (text.length > MAX_TEXT ? text.slice(0, MAX_TEXT) + '…' : text);
  const outcomeText = (vector) => ('raises' in vector
    ? `raises ${vector.raises.type}(${JSON.stringify(vector.raises.message)})`
    : clip(canonical(vector.returns)));

  // 'hermes.core.values:json_type' → the transpiled function (or class), and its short name for messages.
  function lookUp(qualified) {
    const [moduleName, name] = qualified.split(':');
    const shortModule = moduleName.slice('hermes.'.length);
    const namespace = mods[shortModule.replace(/\./g, '_')];
    const found = namespace && namespace[jsName(name)];
    return { found: typeof found === 'function' ? found : null, shortName: shortModule + '.' + name };
  }
  const callText = (name, args, kwargs) => `${name}(${clip(args.map(canonical).join(', '))}` +
    (Object.keys(kwargs).length ? `, **${clip(canonical(kwargs))}` : '') + ')';
  function outcomeOf(run) {
    try {
      return { returns: toJson(run()) };
    } catch (error) {
      return { raises: errorOf(error) };
    }
  }
  // Same outcome: the same exception (type and message), or the same result; `normal` blanks the text
  // that legitimately differs (EQUIVALENT). A recorded outcome with neither is not compared.
  function sameOutcome(recorded, bundle, normal = (text) => text) {
    if (('raises' in recorded) !== ('raises' in bundle)) return false;
    if ('raises' in recorded) {
      return recorded.raises.type === bundle.raises.type && normal(recorded.raises.message) === normal(bundle.raises.message);
    }
    return !('returns' in recorded) || normal(canonical(recorded.returns)) === normal(canonical(bundle.returns));
  }

  const differences = [];
  const missing = [];
  const replayed = new Set();
  let vectorCount = 0;
  for (const [qualified, vectors] of Object.entries(data.vectors)) {
    if (qualified in data.not_replayed) continue;
    const { found: fn, shortName } = lookUp(qualified);
    if (!fn) {
      missing.push(qualified);
      continue;
    }
    replayed.add(qualified);
    const [pattern] = data.equivalent[qualified] || [];
    const normal = (text) => (pattern ? text.replace(new RegExp(pattern, 'g'), '…') : text);
    for (const vector of vectors) {
      vectorCount += 1;
      const args = callArgs(vector.args, vector.kwargs);
      const bundle = outcomeOf(() => fn(...args));
      const same = sameOutcome(vector, bundle, normal);
      const expectedAfter = canonical(vector.args_after || vector.args);
      const after = canonical(toJson(args.slice(0, vector.args.length)));
      if (!same || (!('raises' in vector) && expectedAfter !== after)) {
        const what = same ? ` [arguments afterwards: CPython → ${clip(expectedAfter)}, bundle → ${clip(after)}]` : '';
        differences.push(`${callText(shortName, vector.args, vector.kwargs)}: CPython → ${outcomeText(vector)}, ` +
          `bundle → ${outcomeText(bundle)}${what}`);
      }
    }
  }

  // Traces: an instance built with the recorded arguments, then the recorded method calls in order; the
  // first call that differs ends its trace (the states have diverged). Then the state left behind.
  const tracedClasses = new Set();
  let traceCount = 0;
  let traceCalls = 0;
  for (const [qualified, traces] of Object.entries(data.traces || {})) {
    const { found: cls, shortName } = lookUp(qualified);
    if (!cls) {
      missing.push(qualified);
      continue;
    }
    tracedClasses.add(qualified);
    for (const trace of traces) {
      traceCount += 1;
      const [args, kwargs] = trace.args;
      const constructed = callText(shortName, args, kwargs);
      let instance;
      const built = outcomeOf(() => {
        instance = cls(...callArgs(args, kwargs));
      });
      if (('raises' in trace) || ('raises' in built)) {
        if (!sameOutcome(trace, built)) {
          const text = (outcome) => ('raises' in outcome ? outcomeText(outcome) : 'an instance');
          differences.push(`${constructed}: CPython → ${text(trace)}, bundle → ${text(built)}`);
        }
        continue;
      }
      let diverged = false;
      for (const [index, call] of trace.calls.entries()) {
        traceCalls += 1;
        const bundle = outcomeOf(() => instance[jsName(call.method)](...callArgs(call.args, call.kwargs)));
        if (!sameOutcome(call, bundle)) {
          differences.push(`${constructed}.${callText(call.method, call.args, call.kwargs)} ` +
            `[call ${index + 1} of ${trace.calls.length}]: CPython → ${outcomeText(call)}, bundle → ${outcomeText(bundle)}`);
          diverged = true;
          break;
        }
      }
      if (diverged) continue;
      for (const [attribute, expected] of Object.entries(trace.state)) {
        const actual = canonical(toJson(instance[jsName(attribute)]));
        if (canonical(expected) !== actual) {
          differences.push(`${constructed} after ${trace.calls.length} calls, .${attribute}: CPython → ${clip(canonical(expected))}, bundle → ${clip(actual)}`);
        }
      }
    }
  }

  // What is covered: core/ functions with at least one replayed vector, and why the others are not.
  const coreFunctions = Object.keys(data.functions).filter((name) => name.startsWith('hermes.core.')).sort();
  const coreCovered = coreFunctions.filter((name) => replayed.has(name));
  const notCovered = Object.keys(data.functions).filter((name) => !replayed.has(name)).sort().map((name) => {
    const kind = data.functions[name];
    let reason = kind !== 'sync' ? `${kind} function (not replayed)`
      : name in data.not_replayed ? data.not_replayed[name]
        : missing.includes(name) ? 'not exported by the bundle'
          : name in data.skipped ? Object.keys(data.skipped[name]).join('; ')
            : 'not called by the unit tests';
    return `  ${name}: ${reason}`;
  });
  if (process.env.HERMES_PARITY_VERBOSE) console.log('Not covered:\n' + notCovered.join('\n'));

  for (const difference of differences.slice(0, SHOWN)) console.log('✗ ' + difference);
  if (differences.length > SHOWN) console.log(`… and ${differences.length - SHOWN} more differences`);
  const coreClasses = Object.keys(data.classes || {}).filter((name) => name.startsWith('hermes.core.'));
  const coreTraced = coreClasses.filter((name) => tracedClasses.has(name));
  const share = coreFunctions.length ? Math.round((100 * coreCovered.length) / coreFunctions.length) : 0;
  console.log(`parity: ${replayed.size} functions, ${vectorCount} vectors replayed on the bundle; ` +
    `core/ coverage ${coreCovered.length}/${coreFunctions.length} functions (${share}%); ` +
    `${tracedClasses.size} classes, ${traceCount} object traces (${traceCalls} method calls); ` +
    `core/ classes traced ${coreTraced.length}/${coreClasses.length}; ` +
    `${notCovered.length} functions not covered (HERMES_PARITY_VERBOSE=1 lists them with the reason); ` +
    `${differences.length} differences`);
  return differences.length === 0 ? 0 : 1;
}

process.exitCode = main(process.argv[2] || 'build/parity/vectors.json');
