/** A diamond: T1 feeds T2 and T3, which feed T4. */
export const diamond = {
  name: 'diamond',
  schemaVersion: '1.5',
  workflow: {
    specification: {
      tasks: [
        {
          name: 'split',
          id: 'T1',
          parents: [],
          children: ['T2', 'T3'],
          inputFiles: ['raw'],
          outputFiles: ['h1', 'h2'],
        },
        { name: 'work', id: 'T2', parents: ['T1'], children: ['T4'], inputFiles: ['h1'], outputFiles: ['r2'] },
        { name: 'work', id: 'T3', parents: ['T1'], children: ['T4'], inputFiles: ['h2'], outputFiles: ['r3'] },
        { name: 'join', id: 'T4', parents: ['T2', 'T3'], children: [], inputFiles: ['r2', 'r3'] },
      ],
      files: [
        { id: 'raw', sizeInBytes: 5_000_000 },
        { id: 'h1', sizeInBytes: 1_000_000 },
        { id: 'h2', sizeInBytes: 2_000_000 },
        { id: 'r2', sizeInBytes: 3000 },
        { id: 'r3', sizeInBytes: 4000 },
      ],
    },
    execution: {
      tasks: [
        { id: 'T1', runtimeInSeconds: 5 },
        { id: 'T2', runtimeInSeconds: 12 },
        { id: 'T3', runtimeInSeconds: 30 },
        { id: 'T4', runtimeInSeconds: 2 },
      ],
    },
  },
};
