import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { DEMO_BOOK_FILES } from './demo-books';

/**
 * Vitest's order, with the files that load a demo book moved after every other file of their
 * group: `npm test` builds the books in the background from its start (decision 047), and a file
 * that needs one early would hold its worker waiting for the build.
 */
export default class DemoBooksLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const needsBook = (file: TestSpecification) =>
      DEMO_BOOK_FILES.some((book) => file.moduleId.endsWith(`/${book}`));
    const group = (file: TestSpecification) => file.project.config.sequence.groupOrder;
    return [...sorted].sort((a, b) => group(a) - group(b) || Number(needsBook(a)) - Number(needsBook(b)));
  }
}
