-- Pre-translation by machine translation (modes mt and tm+mt): the engine that translated a segment, kept
-- while the target is its (an edit clears it), and staged with the pre-translation's other matches. A
-- segment's version written by it has the origin 'mt'.
ALTER TABLE pretranslate_staging ADD COLUMN mt_provider TEXT;
ALTER TABLE document_segments ADD COLUMN mt_provider TEXT;
