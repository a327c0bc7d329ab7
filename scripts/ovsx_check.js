// What `ovsx publish` (the pinned ovsx devDependency) checks of a finished .vsix before it uploads, run offline:
// the manifest read the way ovsx reads it, its required fields, a license, and the registry's default size limit.
// (The upload, the namespace and the per-namespace size limit need Open VSX itself.)
// Usage: node scripts/ovsx_check.js FILE.vsix — prints what fails and exits 1, or prints nothing.
const fs = require('fs');
const { readVSIXPackage, readZip } = require('ovsx/lib/zip');
const { validateManifest } = require('ovsx/lib/util');
const { DEFAULT_PUBLISH_SIZE } = require('ovsx/lib/registry');

async function problems(vsix) {
    const found = [];
    const manifest = await readVSIXPackage(vsix);
    try {
        validateManifest(manifest);
    } catch (error) {
        found.push(error.message);
    }
    const licenses = await readZip(vsix, name => /^extension\/licen[cs]e(\.(md|txt))?$/i.test(name));
    if (!manifest.license && licenses.size === 0) {
        found.push('no "license" in package.json and no LICENSE file (Open VSX requires one)');
    }
    const size = fs.statSync(vsix).size;
    if (size > DEFAULT_PUBLISH_SIZE) {
        found.push(`${size} bytes exceed Open VSX's default limit of ${DEFAULT_PUBLISH_SIZE}`);
    }
    return found;
}

problems(process.argv[2]).then(found => {
    for (const problem of found) {
        console.log(problem);
    }
    process.exit(found.length ? 1 : 0);
}, error => {
    console.log(error.message);
    process.exit(1);
});
